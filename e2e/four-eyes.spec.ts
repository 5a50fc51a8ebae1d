import { expect, test } from '@playwright/test';
import { consoleLogin, consoleRoute, loginAsAdmin, watchConsoleErrors } from './support/console.js';
import { loadSettings, putSetting } from './support/funds.js';
import { SECOND_ADMIN_PASSWORD, SECOND_ADMIN_USERNAME, secondAdminBearer } from './support/operator-api.js';

/**
 * Four-eyes on the settings that could defeat it (issue 22, ADR 0034): the administrator who changes the
 * second-approval threshold is not offered the confirmation; a second administrator confirms it on the
 * console's Settings screen, and only then does it take effect.
 */
test('a threshold change waits for a second administrator, who confirms it', async ({
  page,
  browser,
  baseURL,
}) => {
  const noErrors = watchConsoleErrors(page);
  await loginAsAdmin(page);
  const original = await loadSettings(page.request);
  const proposed = original.withdrawal.second_approval_over_yen + 12_345;
  try {
    await page.goto(consoleRoute('/settings'));
    const form = page.locator('form#settings-withdrawal');
    const threshold = form.getByLabel('Second approval needed above (yen)');
    await threshold.fill(String(proposed));
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved. The change to the protected setting now waits')).toBeVisible();
    const pending = page.getByTestId('proposal-withdrawal');
    await expect(pending).toContainText(new Intl.NumberFormat('en').format(proposed));
    await expect(pending).toContainText('You proposed this change');
    await expect(pending).toContainText('Expires on');
    // the proposer is not asked to confirm their own change: no count in the menu
    await expect(page.getByTestId('nav-proposals-badge')).toHaveCount(0);
    await expect(pending.getByRole('button', { name: 'Confirm the change' })).toHaveCount(0);
    await page.reload();
    await expect(threshold).toHaveValue(String(original.withdrawal.second_approval_over_yen));

    await secondAdminBearer(page.request);
    const second = await (await browser.newContext({ baseURL })).newPage();
    await consoleLogin(second, SECOND_ADMIN_USERNAME, SECOND_ADMIN_PASSWORD);
    // the second administrator is told in the menu that a change waits for them (ADR 0049)
    await expect(second.getByTestId('nav-proposals-badge')).toContainText('1');
    // the menu's Settings entry is below the fold of the test's window: opened by its address
    await second.goto(consoleRoute('/settings'));
    const theirs = second.getByTestId('proposal-withdrawal');
    await expect(theirs).toContainText('Proposed by');
    await theirs.getByRole('button', { name: 'Confirm the change' }).click();
    await second.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm the change' }).click();
    await expect(second.getByText('Change confirmed and now in effect')).toBeVisible();
    await expect(theirs).toHaveCount(0);
    await expect(second.getByTestId('nav-proposals-badge')).toHaveCount(0);
    await expect(
      second.locator('form#settings-withdrawal').getByLabel('Second approval needed above (yen)'),
    ).toHaveValue(String(proposed));
    await second.context().close();
    noErrors();
  } finally {
    await putSetting(page.request, 'withdrawal', original.withdrawal);
  }
});
