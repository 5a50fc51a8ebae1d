import { randomBytes } from 'node:crypto';
import { knownUsers } from './known-users.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { migratedTemplate, postgresTemplate } from './database-template.js';
import { FixedClock } from '../lib/clock.js';
import type { SmsMessage, SmsSender } from '../lib/sms.js';
import type { MarketDataProvider } from '../market/provider.js';
import type { SerializerPlan } from '../plugins/serializer.js';
import type { TApplicationProfile } from '@kabuto/contract';

/** Keeps what would have been sent, so a test can read the code. */
export class CapturingSms implements SmsSender {
  readonly kind = 'test';
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage): Promise<void> {
    this.sent.push(message);
  }
  lastCodeFor(phone: string): string {
    const message = this.sent.findLast((m) => m.phone === phone && m.code !== undefined);
    if (!message?.code) throw new Error(`no SMS code was sent to ${phone}`);
    return message.code;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: FixedClock;
  sms: CapturingSms;
  config: Config;
  close(): Promise<void>;
}

/** 2026-11-24 (a Tuesday) 10:00 in Tokyo: a business day, inside the morning session. */
export const TEST_NOW = '2026-11-24T01:00:00.000Z';

/**
 * A fresh app on a fresh, empty, migrated database: PGlite in memory by default, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL (dropped again on close). Both start as a copy of a migrated
 * template (database-template.ts), made once per set of migrations.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance) => void,
  options: {
    produceTicks?: boolean;
    clock?: FixedClock;
    maxBufferedBytes?: number;
    market?: (clock: FixedClock) => MarketDataProvider;
    /** Where the app's log lines go (info and above); none are written without it. */
    logStream?: { write(line: string): void };
    /** The level of the lines written to logStream (info by default). */
    logLevel?: 'debug' | 'info';
    /** Told which routes' answers are serialised compiled and which by zod (ADR 0042). */
    onSerializerPlan?: (plan: SerializerPlan) => void;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-test-')),
    LOG_LEVEL: 'silent',
    DEMO_MODE: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // every test app is one client (127.0.0.1) registering many numbers of one range (ADR 0030)
    SMS_DAILY_PER_CLIENT: '100000',
    SMS_DAILY_PER_RANGE: '100000',
    LOGIN_CLIENT_FREE_FAILURES: '100000',
    WEB_DIST: join(tmpdir(), 'kabuto-no-web-dist'),
    // console tests sign in as the seeded administrator by password; the passkey hold has its own tests
    CONSOLE_ADMIN_PASSKEY: 'optional',
    // The tests share their worker's event loop with the embedded database and with each other on a busy
    // machine, where a test's own bursts make the loop late: like the rate limits above, shedding by the
    // loop's delay is off here and on in load-shedding.test.ts and in the end-to-end servers (ADR 0062).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const serverUrl = process.env['TEST_DATABASE_URL'];
  let dropDatabase: (() => Promise<void>) | undefined;
  let url: string | undefined;
  if (serverUrl) {
    const name = `kabuto_test_${randomBytes(6).toString('hex')}`;
    const template = await postgresTemplate(serverUrl);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const parsed = new URL(serverUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    dropDatabase = async () => {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  }
  const database = await openDatabase({
    url,
    poolSize: 4,
    ...(url === undefined ? { template: await migratedTemplate() } : {}),
  });
  await database.migrate();
  const clock = options.clock ?? new FixedClock(TEST_NOW);
  const sms = new CapturingSms();
  const app = await buildApp({
    config,
    database,
    clock,
    sms,
    logger: options.logStream ? { level: options.logLevel ?? 'info', stream: options.logStream } : false,
    produceTicks: options.produceTicks ?? false,
    ...(options.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: options.maxBufferedBytes }),
    ...(options.market === undefined ? {} : { market: options.market(clock) }),
    ...(options.onSerializerPlan === undefined ? {} : { onSerializerPlan: options.onSerializerPlan }),
  });
  extend?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    sms,
    config,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase?.();
    },
  };
}

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export function body<T = unknown>(response: LightMyRequestResponse): Envelope<T> {
  return response.json<Envelope<T>>();
}

let phoneCounter = 0;
/** A fresh valid mobile number per call within a test file. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `090${String(10_000_000 + phoneCounter).slice(-8)}`;
}

/** Registers a user through the API (campaign code seeded here) and logs in; answers the token. */
export async function registerAndLogin(
  t: TestApp,
  options: { phone?: string; password?: string; verified?: boolean } = {},
): Promise<{ token: string; userId: number; phone: string; password: string }> {
  const phone = options.phone ?? nextPhone();
  const password = options.password ?? 'kbt7secret';
  await ensureCampaignCode(t);
  const sent = await t.app.inject({ method: 'POST', url: '/api/auth/sendSmsCode', payload: { phone } });
  if (body(sent).code !== 1) throw new Error(`sendSmsCode failed: ${sent.body}`);
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      phone,
      password,
      password_confirm: password,
      invite_code: CAMPAIGN,
      sms_code: t.sms.lastCodeFor(phone),
    },
  });
  if (body(registered).code !== 1) throw new Error(`register failed: ${registered.body}`);
  const logged = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: phone, password, agree: true },
  });
  const data = body<{ token: string; user_id: number }>(logged);
  if (data.code !== 1) throw new Error(`login failed: ${logged.body}`);
  if (options.verified ?? true) await markVerified(t, data.data.user_id);
  knownUsers.set(data.data.token, { token: data.data.token, phone, password });
  return { token: data.data.token, userId: data.data.user_id, phone, password };
}

export const CAMPAIGN = 'TESTCAMPAIGN';

export async function ensureCampaignCode(t: TestApp): Promise<void> {
  const { invitationCodes } = await import('../db/schema.js');
  await t.database.db
    .insert(invitationCodes)
    .values({ code: CAMPAIGN, kind: 'campaign' })
    .onConflictDoNothing();
}

export const VERIFIED_NAME = '山田 太郎';
export const VERIFIED_KANA = 'ヤマダ\u3000タロウ';

/** A complete application's answers that pass every default suitability rule (a customer aged 41 in 2026). */
export const SUITABLE_PROFILE = {
  postal_code: '1000005',
  prefecture: '13',
  city: '千代田区',
  address_line: '丸の内1-1-1',
  building: '',
  occupation: 'company_employee',
  employer_type: 'unlisted_company',
  annual_income: '5m_10m',
  financial_assets: '3m_5m',
  experience: { stocks: '3_5', margin: '1_3', funds: '1_3', bonds: 'none', fx: 'none' },
  purpose: 'growth',
  fund_source: 'salary',
  pep: false,
  tax_residence: 'japan_only',
  tax_country: '',
} satisfies TApplicationProfile;

/** The published sample My Number (its check digit is valid). */
export const SAMPLE_MY_NUMBER = '123456789018';

/**
 * Test setup only: records a passed account application for the user straight into the database (the
 * application and its review are tested through the API in modules/identity, modules/funds and
 * modules/opening), then opens the brokerage account with the review's own `openBrokerageAccount`, so tests
 * of trading and funds start from an opened, suitable account. `profile` replaces the suitable answers.
 */
export async function markVerified(
  t: TestApp,
  userId: number,
  fullName = VERIFIED_NAME,
  application: { profile?: TApplicationProfile; birthDate?: string; openNisa?: boolean } = {},
): Promise<void> {
  const { eq } = await import('drizzle-orm');
  const { identityVerifications, uploads, users } = await import('../db/schema.js');
  const { encryptMyNumber } = await import('../modules/opening/my-number.js');
  const { openBrokerageAccount } = await import('../modules/opening/brokerage.js');
  const photo = () => ({
    id: randomBytes(32).toString('hex'),
    userId,
    purpose: 'identity_front' as const,
    contentType: 'image/png',
    size: 1,
    sha256: '0'.repeat(64),
  });
  const [front, back] = [photo(), photo()];
  await t.database.db.insert(uploads).values([front, back]);
  await t.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(identityVerifications)
      .values({
        userId,
        fullName,
        fullNameKana: VERIFIED_KANA,
        birthDate: application.birthDate ?? '1985-04-01',
        profile: application.profile ?? SUITABLE_PROFILE,
        documentType: 'my_number_card',
        myNumberCipher: encryptMyNumber(t.app.ctx.myNumberKey, SAMPLE_MY_NUMBER),
        myNumberLast4: SAMPLE_MY_NUMBER.slice(-4),
        idNumber: '',
        specificAccount: 'withholding',
        openNisa: application.openNisa ?? true,
        frontUploadId: front.id,
        backUploadId: back.id,
        status: 'passed',
        reviewedAt: t.clock.now(),
      })
      .returning();
    if (!row) throw new Error('the application was not written');
    await tx.update(users).set({ realNameStatus: 'verified' }).where(eq(users.id, userId));
    await openBrokerageAccount(tx, row, t.clock.now());
  });
}

/** An account application as POST /api/identity takes it, with the given photos (the form's wire shape). */
export function applicationPayload(front: string, back: string, fullName = VERIFIED_NAME) {
  return {
    full_name: fullName,
    full_name_kana: 'ﾔﾏﾀﾞ ﾀﾛｳ',
    birth_date: '1985-04-01',
    profile: { ...SUITABLE_PROFILE, postal_code: '100-0005' },
    my_number: SAMPLE_MY_NUMBER,
    document_type: 'my_number_card',
    front_upload_id: front,
    back_upload_id: back,
    specific_account: 'withholding',
    open_nisa: true,
  };
}
