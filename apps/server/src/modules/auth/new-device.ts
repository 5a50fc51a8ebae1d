import { and, eq } from 'drizzle-orm';
import type { Locale } from '@kabuto/contract';
import { sessions } from '../../db/schema.js';
import type { Db } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import type { SmsSender } from '../../lib/sms.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import { notify, publishOutbox, smsNotice, type EventOutbox } from '../messages/messages.js';
import { deviceOf, ipPrefix } from './sessions.js';

/**
 * A sign-in from a device the account has not signed in from before (no earlier session with the same
 * user agent) tells the user by message and SMS, with the device and its network (issue 22, ADR 0031).
 * The account's very first sign-in is not news to its owner, and says nothing. Call it before the new
 * session is written.
 */
export async function noticeNewDevice(
  deps: { db: Db; clock: Clock; sms: SmsSender; realtime: RealtimeHub },
  userId: number,
  userAgent: string | undefined,
  ip: string | undefined,
  locale: Locale,
): Promise<boolean> {
  // a client that names no user agent cannot be told from another: nothing is said
  if (userAgent === undefined) return false;
  const agent = userAgent.slice(0, 300);
  const earlier = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.userAgent, agent)))
    .limit(1);
  const [any] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .limit(1);
  if (!any || earlier.length > 0) return false;
  const params = {
    device: deviceOf(agent) ?? '?',
    place: (ip === undefined ? null : ipPrefix(ip)) ?? '?',
  };
  const now = deps.clock.now();
  const outbox: EventOutbox = [];
  await notify(deps.db, outbox, userId, 'security.new_device', params, now);
  await publishOutbox(deps.realtime, outbox);
  await smsNotice(deps, userId, 'security.new_device', params, locale);
  return true;
}
