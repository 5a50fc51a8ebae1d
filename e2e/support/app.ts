import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';

export const DEMO_INVITE = 'KABUTO2026';

/**
 * The server the running flow's project drives (playwright.config.ts, ADR 0045): its port and its data
 * folder. Each project has a server of its own, so neither may come from one variable for the whole suite.
 */
export function currentServer(testInfo: TestInfo = test.info()): { port: number; dataDir: string } {
  const { port, dataDir } = testInfo.project.metadata as { port?: unknown; dataDir?: unknown };
  if (typeof port !== 'number' || typeof dataDir !== 'string') {
    throw new Error(`project ${testInfo.project.name} names no server (see playwright.config.ts)`);
  }
  return { port, dataDir };
}

/** The development SMS sender writes every code here (see apps/server/src/lib/sms.ts). */
export function readSmsCode(phone: string): string {
  const outbox = join(currentServer().dataDir, 'dev-sms-outbox.jsonl');
  if (!existsSync(outbox)) throw new Error(`no SMS outbox at ${outbox}`);
  const lines = readFileSync(outbox, 'utf8').trim().split('\n');
  const found = lines
    .map((l) => JSON.parse(l) as { phone: string; code?: string })
    .filter((m) => m.phone === phone && m.code !== undefined)
    .at(-1);
  if (!found?.code) throw new Error(`no SMS code for ${phone}`);
  return found.code;
}

/** A fresh, valid Japanese mobile number (080 + 8 digits) for each call. */
export function freshPhone(): string {
  return `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/** Starts the page in a language (the stored `locale`, as the app keeps it). */
export async function useLanguage(
  page: Page,
  code: 'jp' | 'cn' | 'zh-Hant' | 'en' | 'sp' | 'fr',
): Promise<void> {
  await page.addInitScript((c) => {
    if (!sessionStorage.getItem('e2e-locale-set')) {
      localStorage.setItem('locale', c);
      sessionStorage.setItem('e2e-locale-set', '1');
    }
  }, code);
}

export const route = (path: string) => `/japan1/#${path}`;

/** The seeded demo customer (DEMO_MODE). */
export const DEMO = { phone: '09000000001', password: 'demo1234' };

/** The API's answer envelope. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/**
 * Signs the demo customer in through the API (a moved clock ends sessions) and keeps the session as the app
 * does, in the reader's language; answers the session's token for API calls.
 */
export async function signInDemo(
  page: Page,
  lang: 'jp' | 'cn' | 'zh-Hant' | 'en' | 'sp' | 'fr',
): Promise<string> {
  const res = await page.request.post('/api/auth/login', {
    data: { account: DEMO.phone, password: DEMO.password, agree: true },
  });
  const body = (await res.json()) as Envelope<{ token: string; user_id: number }>;
  expect(body.code, body.msg).toBe(1);
  await useLanguage(page, lang);
  // The new session is stored while no page of the app is open (a page of the API's, same origin, same
  // storage), and the app then starts with it. An app page still holding the old token (a moved clock ended
  // it) would otherwise answer its own late 401, or its socket's refusal of that token, by clearing the
  // stored session: the new one, if that came after this sign-in (the race loans.spec.ts met, ADR 0045).
  await page.goto('/api/health');
  await page.evaluate(
    ({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: body.data.token, userId: body.data.user_id },
  );
  await page.goto(route('/subPackages/login/login'));
  return body.data.token;
}

/** The text of the last SMS with a code sent to `phone` (a step-up's names its action). */
export function readSmsText(phone: string): string {
  const found = readFileSync(join(currentServer().dataDir, 'dev-sms-outbox.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { phone: string; code?: string; text?: string })
    .filter((m) => m.phone === phone && m.code !== undefined)
    .at(-1);
  return found?.text ?? '';
}

/**
 * The flow's server at http://localhost (a WebAuthn origin, the server's default relying party) instead of
 * 127.0.0.1, as a fixture: `test.use({ baseURL: localhostBaseURL })` in the passkey specs.
 */
export const localhostBaseURL = async (
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter, which must be an object pattern; this fixture has none
  {}: object,
  use: (baseURL: string) => Promise<void>,
  testInfo: TestInfo,
): Promise<void> => {
  await use(`http://localhost:${currentServer(testInfo).port}`);
};
