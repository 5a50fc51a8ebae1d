// @vitest-environment happy-dom
import { ja } from '@kabuto/contract/messages/ja';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractReady, i18n, initI18n } from '@/shared/i18n/i18n';
import { FieldError } from './field-error';

beforeAll(async () => {
  // the stored language (Japanese by default) as the app starts: the UI texts only, the contract's messages after the first screen (ADR 0059)
  await initI18n({ contract: 'later' });
});

afterEach(cleanup);

describe('FieldError', () => {
  it("shows a contract message in words once the contract's catalogue arrives after it was rendered", async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <FieldError id="phone-error" message="validation.phoneRequired" />
      </I18nextProvider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('validation.phoneRequired');
    await contractReady();
    expect(await screen.findByText(ja.validation.phoneRequired)).toBeDefined();
  });

  it("shows a server's message as it is, and nothing without a message", () => {
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <FieldError id="a" message="この口座は使えません" />
        <FieldError id="b" message={undefined} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('alert').textContent).toBe('この口座は使えません');
    expect(container.querySelectorAll('[role="alert"]')).toHaveLength(1);
  });
});
