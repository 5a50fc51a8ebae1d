import { z } from 'zod';
import { MAX_SEN, type Sen } from '../money.js';

/**
 * Money on the wire: an integer count of sen (1/100 yen), a JSON number. Parsing brands it `Sen`: the
 * schema's checks are those of `sen()` (a safe integer of at most MAX_SEN either way), so a parsed amount
 * has passed the same gate and clients never re-brand it by hand. The brand is static only: the wire
 * format, the runtime schema and its JSON Schema stay those of an integer. See ADR 0002 and ADR 0019.
 */
export const ZSenAmount = z.number().int().min(-MAX_SEN).max(MAX_SEN) as unknown as z.ZodType<Sen, number>;

export const ZRealNameStatus = z.enum(['unverified', 'pending', 'verified', 'rejected']);

// GET /api/index/getUserInfo?user_id=
export const ZUserIdQuery = z.object({
  user_id: z.coerce
    .number({ error: 'validation.userIdRequired' })
    .int({ error: 'validation.userIdRequired' })
    .positive({ error: 'validation.userIdRequired' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'validation.userIdRequired' })
    .optional(),
});

export const ZUserInfo = z.object({
  user_id: z.number().int(),
  phone: z.string(),
  invitation_code: z.string(),
  real_name_status: ZRealNameStatus,
  has_txn_password: z.boolean(),
  /** 0-100 by the published rule in docs/adr/0007-credit-score.md; never set by hand. */
  credit_score: z.number().int().min(0).max(100),
  total_assets: ZSenAmount,
  available_balance: ZSenAmount,
  used_funds: ZSenAmount,
  floating_pl: ZSenAmount,
  created_at: z.string(),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

export const ZLoginResponse = z.object({
  token: z.string(),
  user_id: z.number().int(),
  expires_at: z.string(),
  idle_timeout_seconds: z.number().int(),
  user_info: ZUserInfo,
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

// GET /api/index/getCzhiurl
export const ZDepositUrlResponse = z.object({ url: z.string().nullable() });

// GET /api/index/withdrawal?user_id=
export const ZWithdrawalRules = z.object({
  min_amount: ZSenAmount,
  currency: z.literal('JPY'),
  time_zone: z.string(),
  windows: z.array(z.object({ start: z.string(), end: z.string() })),
  business_days_only: z.boolean(),
  open_now: z.boolean(),
  next_window_start: z.string(),
  credited_within_hours: z.number().int(),
  /** what this user can withdraw now: cash not held for orders, not used as margin, not already withdrawing */
  withdrawable: ZSenAmount,
});
export type TWithdrawalRules = z.infer<typeof ZWithdrawalRules>;

// GET /api/health: liveness (the process answers), without touching the database
export const ZHealth = z.object({
  status: z.literal('ok'),
  version: z.string(),
  /** this process's WebSocket clients and whether it is the one producing live ticks */
  realtime: z.object({
    node: z.string(),
    clients: z.number().int(),
    dropped: z.number().int(),
    producing: z.boolean(),
    pubsub: z.enum(['local', 'redis']),
    /** the pub/sub is lost: this process's clients were told their quotes are stale (ADR 0032) */
    stale: z.boolean(),
  }),
});
export type THealth = z.infer<typeof ZHealth>;

// GET /api/ready: readiness, each dependency checked (503 when one the API needs is down)
export const ZReady = z.object({
  /** `degraded`: the API serves, but the pub/sub is lost and live quotes are stale (ADR 0032) */
  status: z.enum(['ok', 'degraded', 'unavailable']),
  version: z.string(),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']), latency_ms: z.number() }),
  /** how processes share events: in-process, or Redis and whether it is connected now */
  pubsub: z.object({ ok: z.boolean(), kind: z.enum(['local', 'redis']) }),
});
export type TReady = z.infer<typeof ZReady>;
