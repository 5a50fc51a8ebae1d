// @vitest-environment happy-dom
import { screen, waitFor, fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dialog, showToast } from './overlays';

/**
 * The first overlay imports antd-mobile's Dialog and Toast, which the test runner transforms on first use: over
 * testing-library's default second when other tests load the machine (seen once, 2026-11-27).
 */
const FIRST_IMPORT = { timeout: 10_000 };

describe('overlays fetched on first use', () => {
  it('shows a confirm dialog and answers what the user tapped', async () => {
    const answer = dialog.confirm({ content: 'Cancel the order?', confirmText: 'Yes', cancelText: 'No' });
    fireEvent.click(await screen.findByText('Yes', {}, FIRST_IMPORT));
    await expect(answer).resolves.toBe(true);
    const second = dialog.confirm({ content: 'Log out?', confirmText: 'OK', cancelText: 'Keep' });
    fireEvent.click(await screen.findByText('Keep'));
    await expect(second).resolves.toBe(false);
  });

  it('shows a toast with its message', async () => {
    showToast('Network error', 2000);
    expect(await screen.findByText('Network error')).toBeTruthy();
  });

  it('shows a dialog whose own actions say how it ended', async () => {
    const ended = new Promise<string>((resolve) => {
      void dialog.show({
        content: 'Enter the code',
        closeOnAction: true,
        actions: [{ key: 'send', text: 'Send' }],
        onAction: (action) => {
          resolve(String(action.key));
        },
      });
    });
    fireEvent.click(await screen.findByText('Send'));
    await expect(ended).resolves.toBe('send');
    await waitFor(() => {
      expect(screen.queryByText('Enter the code')).toBeNull();
    });
  });
});
