import { eq } from 'drizzle-orm';
import type { Db } from './db/client.js';
import { invitationCodes, users } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { hashPassword } from './lib/passwords.js';
import { createUser } from './modules/auth/service.js';

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
export async function seedDemo(db: Db, clock: Clock, demoCashYen: number): Promise<SeedResult> {
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
  return { campaignCode: DEMO.campaignCode, demoPhone: DEMO.phone, demoPassword: DEMO.password, createdUser };
}
