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
  if (demo) await seedDemoIdentity(db, clock, store, demo.id);
  if (demo && trading) await seedDemoTaxHistory(db, demo.id, trading);
  return { campaignCode: DEMO.campaignCode, demoPhone: DEMO.phone, demoPassword: DEMO.password, createdUser };
}

export const DEMO_NAME = '兜 太郎';

/**
 * The demo user arrives verified, with an approved bank account, so that the demo can trade and withdraw
 * at once. Both are visible as what they are: placeholder photos, and audit entries by the system (no
 * operator) saying the demo seed made them. Done once; later starts change nothing.
 */
async function seedDemoIdentity(db: Db, clock: Clock, store: UploadStore, userId: number): Promise<void> {
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
        idNumber: 'DEMO0001',
        frontUploadId: front,
        backUploadId: back,
        status: 'passed',
        reviewedAt: now,
        createdAt: now,
      })
      .returning({ id: identityVerifications.id });
    await tx.update(users).set({ realNameStatus: 'verified' }).where(eq(users.id, userId));
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
      reason: 'Demo mode: the demo user is seeded as verified with a demo bank account',
      after: { status: 'passed', bank_account: account?.id ?? null },
      at: now,
    });
  });
}
