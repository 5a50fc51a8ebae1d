import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { consoleRoute, openedDialog } from './console.js';
import { adminBearer, confirmProposals } from './operator-api.js';

/**
 * What funds.spec.ts needs beyond console.ts (the console's screens) and operator-api.ts: a second
 * operator made on the console's Operators screen, and the withdrawal settings set and restored through
 * the console API so that the withdrawal hours are known whatever the hour the suite runs at.
 */

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function call<T>(response: { json(): Promise<unknown> }): Promise<Envelope<T>> {
  return (await response.json()) as Envelope<T>;
}

export interface Settings {
  withdrawal: {
    min_yen: number;
    windows: { start: string; end: string }[];
    second_approval_over_yen: number;
  };
  deposit: Record<string, unknown> & { url: string | null };
  customer_service: { name: string; url: string; hours?: string }[];
}

/** The settings in force (GET /api/console/settings), to change some for a test and restore them after. */
export async function loadSettings(request: APIRequestContext): Promise<Settings> {
  const answer = await call<Settings>(
    await request.get('/api/console/settings', { headers: await adminBearer(request) }),
  );
  expect(answer.code, answer.msg).toBe(1);
  return answer.data;
}

/**
 * PUT /api/console/settings/<key> as the administrator; a change of the threshold or the deposit account is
 * a proposal (ADR 0034), which the second administrator then confirms.
 */
export async function putSetting<K extends keyof Settings>(
  request: APIRequestContext,
  key: K,
  value: Settings[K],
): Promise<void> {
  const answer = await call(
    await request.put(`/api/console/settings/${key}`, { headers: await adminBearer(request), data: value }),
  );
  expect(answer.code, answer.msg).toBe(1);
  if (key === 'withdrawal' || key === 'deposit') await confirmProposals(request, key);
}

/** The Tokyo time of day of an instant, in minutes. */
export function tokyoMinuteOfDay(at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Tokyo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return part('hour') * 60 + part('minute');
}

/**
 * One withdrawal window that `now` is at least an hour away from (Tokyo time), so that a request filed
 * during the test is outside the hours and is processed from the start of the next window: 00:00-01:00
 * when it is past 02:00 in Tokyo, else 22:00-23:00.
 */
export function windowAwayFrom(now: Date): { start: string; end: string } {
  return tokyoMinuteOfDay(now) >= 120 ? { start: '00:00', end: '01:00' } : { start: '22:00', end: '23:00' };
}

/**
 * Creates a reviewer on the console's Operators screen (the administrator is signed in on `page`) and
 * answers its user name and one-time password.
 */
export async function createReviewer(page: Page, displayName: string) {
  await page.goto(consoleRoute('/operators'));
  await page.getByRole('button', { name: 'New operator' }).click();
  const create = await openedDialog(page, 'New operator');
  const username = `funds${String(Date.now()).slice(-7)}`;
  await create.getByLabel('User name').fill(username);
  await create.getByLabel('Display name').fill(displayName);
  await create.getByRole('button', { name: 'Save' }).click();
  const shown = await openedDialog(page, `One-time password for ${displayName}`);
  const oneTimePassword = await shown.getByLabel('One-time password').inputValue();
  expect(oneTimePassword.length).toBeGreaterThanOrEqual(12);
  await shown.getByRole('button', { name: 'Close' }).click();
  return { username, oneTimePassword };
}

/** "¥9,399,000" → 9399000 (whole yen on screen). */
export function yenOf(text: string | null): number {
  return Number((text ?? '').replace(/[^\d-]/g, ''));
}
