// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/shared/api/query-client';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { createHashHistory } from '@/shared/navigation/hash-history';
import { RouterContextProvider } from '@/shared/navigation/router';
import { TAB_PATHS } from '@/shared/navigation/routes';
import { AppTabBar } from './tab-bar';

beforeAll(async () => {
  await initI18n({ contract: 'later' });
});
afterEach(cleanup);

describe('the tab bar', () => {
  it("starts a tab's page at the press on it, before the click opens it", () => {
    const history = createHashHistory();
    const prefetch = vi.fn<(to: string) => void>();
    const { container } = render(
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <RouterContextProvider value={{ history, location: history.location(), prefetch }}>
            <AppTabBar activePath={TAB_PATHS.home} />
          </RouterContextProvider>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    const market = container.querySelector(`[data-path="${TAB_PATHS.market}"]`);
    expect(market).not.toBeNull();
    // on the tab's icon, as a finger lands
    fireEvent.pointerDown(market?.querySelector('svg') ?? (market as Element));
    expect(prefetch).toHaveBeenCalledWith(TAB_PATHS.market);
    // a press beside the tabs loads nothing
    fireEvent.pointerDown(container.querySelector('nav') as Element);
    expect(prefetch).toHaveBeenCalledTimes(1);
    history.dispose();
  });
});
