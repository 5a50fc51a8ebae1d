import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './db/types.js';
import { invitationCodes, users } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { hashPassword } from './lib/passwords.js';
import { createUser } from './modules/auth/service.js';
import { audit } from './modules/console/audit.js';
import type { UploadStore } from './modules/uploads/storage.js';
import { pngBytes } from './lib/images.js';
import type { FeeSchedule } from '@kabuto/contract';
import type { MarketDataProvider } from './market/provider.js';
import { seedDemoTaxHistory } from './seed-tax.js';
import { seedDemoProducts } from './seed-products.js';
import { seedDemoOfferings } from './seed-ipo.js';
import { seedDemoLoans } from './seed-loans.js';
import { seedDemoNews } from './seed-news.js';
import { seedDemoBanners } from './seed-banners.js';
import { encryptMyNumber } from './modules/opening/my-number.js';
import { openBrokerageAccount } from './modules/opening/brokerage.js';
import type { TApplicationProfile } from '@kabuto/contract';
import { bankAccountLog, bankAccounts, identityVerifications, uploads } from './db/schema.js';

/** The demo that `npm start` seeds on first start; printed in the start banner. */
export const DEMO = {
  campaignCode: 'KABUTO2026',
  phone: '09000000001',
  password: 'demo1234',
} as const;

export interface SeedResult {
  campaignCode: string;
  demoPhone: string;
  demoPassword: string;
  createdUser: boolean;
}

/** Seeds the campaign invitation code and the demo user, once; later starts change nothing. */
export async function seedDemo(
  db: Db,
  clock: Clock,
  demoCashYen: number,
  store: UploadStore,
  myNumberKey: Buffer,
  /** the market and fees the demo's past trades are made with (seed-tax.ts); no history without them */
  trading?: { market: MarketDataProvider; fees: FeeSchedule },
): Promise<SeedResult> {
  await db
    .insert(invitationCodes)
    .values({ code: DEMO.campaignCode, kind: 'campaign', note: 'Demo campaign code seeded at first start' })
    .onConflictDoNothing();
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.phone, DEMO.phone))
    .limit(1);
  let createdUser = false;
  if (!existing) {
    const passwordHash = await hashPassword(DEMO.password);
    await db.transaction(async (tx) => {
      await createUser(
        tx,
        { clock, demoCashYen },
        { phone: DEMO.phone, passwordHash, invitedByCode: DEMO.campaignCode, inviterUserId: null },
      );
    });
    createdUser = true;
  }
  const [demo] = await db.select({ id: users.id }).from(users).where(eq(users.phone, DEMO.phone)).limit(1);
  if (demo) await seedDemoIdentity(db, clock, store, demo.id, myNumberKey);
  if (demo && trading) await seedDemoTaxHistory(db, demo.id, trading);
  if (trading) await seedDemoProducts(db, clock, trading.market);
  if (demo && trading) await seedDemoOfferings(db, clock, trading.market, demo.id);
  if (demo) await seedDemoLoans(db, clock, demo.id, DEMO_NAME);
  await seedDemoNews(db, clock);
  await seedDemoBanners(db, clock, store);
  return { campaignCode: DEMO.campaignCode, demoPhone: DEMO.phone, demoPassword: DEMO.password, createdUser };
}

export const DEMO_NAME = '兜 太郎';

/** The demo user's account application (issue 23): answers that pass every default suitability rule. */
export const DEMO_APPLICATION = {
  fullNameKana: 'カブト\u3000タロウ',
  birthDate: '1980-05-05',
  profile: {
    postal_code: '1030026',
    prefecture: '13',
    city: '中央区',
    address_line: '日本橋兜町2-1',
    building: '',
    occupation: 'company_employee',
    employer_type: 'unlisted_company',
    annual_income: '5m_10m',
    financial_assets: '10m_30m',
    experience: { stocks: '5_plus', margin: '1_3', funds: '3_5', bonds: 'none', fx: 'none' },
    purpose: 'growth',
    fund_source: 'salary',
    pep: false,
    tax_residence: 'japan_only',
    tax_country: '',
  } satisfies TApplicationProfile,
  /** the published sample My Number (a valid check digit, nobody's number) */
  myNumber: '123456789018',
} as const;

/**
 * The demo user arrives with a full account application passed and the brokerage account it opens
 * (特定口座 源泉徴収あり plus NISA), and an approved bank account, so that the demo can trade and withdraw
 * at once. Both are visible as what they are: placeholder photos, and audit entries by the system (no
 * operator) saying the demo seed made them. Done once; later starts change nothing.
 */
async function seedDemoIdentity(
  db: Db,
  clock: Clock,
  store: UploadStore,
  userId: number,
  myNumberKey: Buffer,
): Promise<void> {
  const [existing] = await db
    .select({ id: identityVerifications.id })
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId))
    .limit(1);
  if (existing) return;
  const now = clock.now();
  const photo = async (purpose: 'identity_front' | 'identity_back') => {
    const bytes = pngBytes(32, 20);
    const id = randomBytes(32).toString('hex');
    await store.put(id, bytes);
    await db.insert(uploads).values({
      id,
      userId,
      purpose,
      contentType: 'image/png',
      size: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      createdAt: now,
    });
    return id;
  };
  const front = await photo('identity_front');
  const back = await photo('identity_back');
  await db.transaction(async (tx) => {
    const [identity] = await tx
      .insert(identityVerifications)
      .values({
        userId,
        fullName: DEMO_NAME,
        fullNameKana: DEMO_APPLICATION.fullNameKana,
        birthDate: DEMO_APPLICATION.birthDate,
        profile: DEMO_APPLICATION.profile,
        documentType: 'my_number_card',
        myNumberCipher: encryptMyNumber(myNumberKey, DEMO_APPLICATION.myNumber),
        myNumberLast4: DEMO_APPLICATION.myNumber.slice(-4),
        idNumber: '',
        specificAccount: 'withholding',
        openNisa: true,
        frontUploadId: front,
        backUploadId: back,
        status: 'passed',
        reviewedAt: now,
        createdAt: now,
      })
      .returning();
    await tx.update(users).set({ realNameStatus: 'verified' }).where(eq(users.id, userId));
    if (identity) await openBrokerageAccount(tx, identity, now);
    const [account] = await tx
      .insert(bankAccounts)
      .values({
        userId,
        holderName: DEMO_NAME,
        accountNumber: '0000001',
        bankName: 'Kabuto Demo Bank',
        branchName: 'Head Office',
        branchNumber: '001',
        status: 'approved',
        reviewedAt: now,
        createdAt: now,
      })
      .returning();
    if (account) {
      const detail = JSON.stringify({
        bank_name: account.bankName,
        branch_name: account.branchName,
        account_number: '••••001',
        holder_name: account.holderName,
      });
      await tx.insert(bankAccountLog).values([
        { userId, bankAccountId: account.id, action: 'added', detail, createdAt: now },
        { userId, bankAccountId: account.id, action: 'approved', detail, createdAt: now },
      ]);
    }
    await audit(tx, {
      operatorId: null,
      action: 'seed.demo_identity',
      targetType: 'identity',
      targetId: identity?.id ?? null,
      userId,
      reason:
        'Demo mode: the demo user is seeded with a passed account application, its brokerage account (特定口座 源泉徴収あり, NISA) and a demo bank account',
      after: {
        status: 'passed',
        brokerage_account: { specific_account: 'withholding', nisa: true },
        bank_account: account?.id ?? null,
      },
      at: now,
    });
  });
}
