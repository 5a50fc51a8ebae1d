import { resolve } from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { MARKET_UNIVERSES } from './market/universe.js';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** true/false, a hop count, or a comma-separated list of proxy addresses and CIDR ranges (ADR 0030). */
const trustProxy = z
  .string()
  .trim()
  .min(1)
  .transform((v, ctx): boolean | number | string => {
    if (['true', 'yes'].includes(v)) return true;
    if (['false', 'no', '0'].includes(v)) return false;
    if (/^\d{1,2}$/.test(v)) return Number(v);
    const parts = v.split(',').map((part) => part.trim());
    if (parts.every((part) => isIpOrCidr(part))) return parts.join(',');
    ctx.addIssue({
      code: 'custom',
      message: 'must be true, false, a hop count or a comma-separated list of proxy addresses or CIDR ranges',
    });
    return z.NEVER;
  });

function isIpOrCidr(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (isIP(address) === 4 ? 32 : 128);
}

const urlWithProtocols = (protocols: readonly string[]) =>
  z
    .url()
    .refine(
      (u) => protocols.some((p) => u.startsWith(`${p}://`)),
      `must start with ${protocols.join(':// or ')}://`,
    );

/** The environment, parsed once at start; a bad value stops the process with a message that names it. */
export const ZConfig = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  /** Connections to the PostgreSQL of DATABASE_URL this process keeps at most (they stay open once made). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** How long a request waits for a PostgreSQL connection before it answers 503 (ADR 0032), in ms. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** PostgreSQL cancels a statement that runs longer than this (its statement_timeout), in ms; 0 = never. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  /** Prefix of every Redis key and channel, so that several deployments can share one Redis. */
  REDIS_PREFIX: z.string().min(1).max(64).default('kabuto:'),
  /**
   * With Redis: a process that Redis last counted alone keeps producing ticks (fanned out in-process) while
   * Redis is unreachable (ADR 0032). Set false where a network partition could leave two processes each
   * believing it is alone and a strict single producer matters more than live quotes during an outage.
   */
  MARKET_SOLO_FALLBACK: boolish.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: one readable line per event; `json`: one JSON object per line; `auto`: pretty on a terminal. */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  /**
   * The share of ordinary requests written to the access log, in [0, 1] (0: none). Server errors and requests
   * slower than SLOW_REQUEST_MS are always logged.
   */
  ACCESS_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(0),
  /** A request that takes at least this many ms is logged as slow, whatever the sample. */
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).default(1000),
  /** The deposit page's URL, answered by GET /api/index/getCzhiurl (none by default). */
  DEPOSIT_URL: z.url().optional(),
  /** Demo mode seeds a demo user, campaign invitation code and demo cash. */
  DEMO_MODE: boolish.default(true),
  /**
   * Lets POST /api/clock/advance move this server's clock forward and run the scheduled jobs at once (end-to-end
   * tests and demos that must pass a close, a drawing time or a due date). Off by default; never in production.
   */
  CLOCK_CONTROL: boolish.default(false),
  /** Demo cash credited to each new account in demo mode (a visible journal entry), in yen. */
  DEMO_CASH_YEN: z.coerce.number().int().min(0).max(1_000_000_000).default(10_000_000),
  /** Where the built web app lives (served at /japan1/). */
  WEB_DIST: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  /**
   * How long a process may rely on a session it read from the database (ADR 0014); revocations reach every
   * process at once regardless. 0 reads the database on every request.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  LOGIN_LOCK_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  WITHDRAWAL_MIN_YEN: z.coerce.number().int().min(1).default(10_000),
  /** Withdrawals above this many yen need a second, different operator's approval (operators can change it). */
  WITHDRAWAL_SECOND_APPROVAL_YEN: z.coerce.number().int().min(0).default(1_000_000),
  /** Where the built operator console lives (served at /console/). */
  CONSOLE_DIST: z.string().optional(),
  /**
   * The seeded administrator's one-time password at first start (at least 12 characters; it must be
   * changed at first login). Unset: a random one is generated and printed once.
   */
  CONSOLE_ADMIN_PASSWORD: z.string().min(12).max(200).optional(),
  /** Operator sessions: idle and absolute lifetimes. */
  CONSOLE_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(480).default(30),
  CONSOLE_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24).default(8),
  /**
   * Administrators' passkeys (ADR 0033): `required` (the default, for production) holds an administrator
   * without a passkey to its registration; `optional` lets one use the console with the password alone
   * (a development or test setting). Either way an administrator who has a passkey signs in with it.
   */
  CONSOLE_ADMIN_PASSKEY: z.enum(['required', 'optional']).default('required'),
  /**
   * An S3-compatible bucket for uploads instead of DATA_DIR/uploads (all four of endpoint, bucket and keys;
   * path-style requests, Signature Version 4).
   */
  UPLOAD_S3_ENDPOINT: urlWithProtocols(['http', 'https']).optional(),
  UPLOAD_S3_BUCKET: z.string().min(3).max(63).optional(),
  UPLOAD_S3_REGION: z.string().min(1).default('us-east-1'),
  UPLOAD_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  UPLOAD_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Uploaded photos are scaled down to at most this many pixels on their long side. */
  UPLOAD_MAX_SIDE: z.coerce.number().int().min(256).max(16_384).default(4096),
  /** The long side of the thumbnail the console's review pages show, in pixels. */
  UPLOAD_THUMBNAIL_SIDE: z.coerce.number().int().min(64).max(2048).default(480),
  /** Body size limit for JSON requests, in bytes. */
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /**
   * Which proxies' X-Forwarded-For to believe (ADR 0030): `false` (none, the default), `true` (every hop: only
   * behind a proxy that overwrites the header), a hop count (`1` = the one proxy in front), or a list of
   * proxy addresses or CIDR ranges. A client cannot choose its own address (the rate-limit key) with the
   * header unless a trusted proxy passed it on.
   */
  TRUST_PROXY: trustProxy.default(false),
  /**
   * Origins besides the server's own whose pages may open the WebSocket (comma-separated, e.g. the Vite dev
   * servers'); a browser's socket from any other origin is refused (ADR 0032).
   */
  WS_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    )
    .pipe(z.array(z.url().transform((u) => new URL(u).origin))),
  /** Live WebSockets one client address may hold at once in this process (ADR 0032). */
  WS_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * API requests this process holds at once before it answers new ones 503 OVERLOADED with Retry-After instead
   * of queueing them (issue 21, ADR 0040); health, readiness and WebSockets are not counted. 0: no limit.
   */
  MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(100_000).default(128),
  /**
   * The event loop's standing delay past which a process answers new API requests 503 OVERLOADED with
   * Retry-After (issue 21, ADR 0062): its loop has been later than this, in ms, on every sample for
   * EVENT_LOOP_DELAY_WINDOW_MS. It catches a process whose CPU is the bound, which MAX_IN_FLIGHT does not see.
   * 0: off.
   */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** How long the event loop must stay later than MAX_EVENT_LOOP_DELAY_MS before shedding starts, in ms. */
  EVENT_LOOP_DELAY_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /** The published commission schedule: basis points of the principal, with a minimum and a cap (0 = none). */
  FEE_BP: z.coerce.number().int().min(0).max(100).default(0),
  FEE_MIN_YEN: z.coerce.number().int().min(0).max(10_000).default(0),
  FEE_MAX_YEN: z.coerce.number().int().min(0).max(100_000).default(0),
  /** How often the matcher looks for pending orders the market has reached, in ms. */
  MATCH_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
  /** `tokyo` follows the real Tokyo clock; `always-open` keeps the simulated market in session (demos, tests). */
  MARKET_CLOCK: z.enum(['tokyo', 'always-open']).default('tokyo'),
  /**
   * Which listings have (simulated) prices and can be traded: `nikkei225`, `topix500` (the Nikkei 225 and
   * the TOPIX500) or `all` (every listing). Every listing is searchable either way (ADR 0012).
   */
  MARKET_UNIVERSE: z
    .enum(MARKET_UNIVERSES, { error: `must be one of ${MARKET_UNIVERSES.join(', ')}` })
    .default('nikkei225'),
  /** The simulator's seed: the same seed and clock give the same prices. */
  MARKET_SEED: z.string().min(1).max(64).default('kabuto'),
  /** How often the simulator's live feed beats, in ms (each beat ticks about 30% of the symbols). */
  MARKET_TICK_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** The share of the symbols that tick on each beat, in (0, 1]. */
  MARKET_TICK_FRACTION: z.coerce.number().gt(0).max(1).default(0.3),
  /** Requests a client address may make to each sign-up and sign-in endpoint per minute. */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Failed logins an account (as typed, registered or not) may have before each next attempt waits (ADR 0030). */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /** Failed logins from one client address before each next attempt from it waits. */
  LOGIN_CLIENT_FREE_FAILURES: z.coerce.number().int().min(1).max(100_000).default(30),
  /** The first wait after the free failures, in seconds; it doubles with each further failure. */
  LOGIN_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** The longest wait between two login attempts, in seconds. */
  LOGIN_MAX_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(900),
  /** SMS codes one client address may ask for per day (SMS pumping, ADR 0030). */
  SMS_DAILY_PER_CLIENT: z.coerce.number().int().min(1).default(10),
  /** SMS codes one range of 10,000 numbers (the first seven digits) may be sent per day. */
  SMS_DAILY_PER_RANGE: z.coerce.number().int().min(1).default(30),
  /**
   * WebAuthn (passkeys, ADR 0031): the relying party's ID, a registrable domain of the site (never an IP
   * address), and the exact origin the browser shows. Defaults: `localhost` and http://localhost:PORT.
   */
  WEBAUTHN_RP_ID: z.string().min(1).max(253).optional(),
  WEBAUTHN_ORIGIN: z.url().optional(),
  /** The name a passkey prompt shows for the site. */
  WEBAUTHN_RP_NAME: z.string().min(1).max(64).default('Kabuto'),
  /**
   * The AES-256 key that encrypts My Numbers (ADR 0022): 32 bytes in base64. Unset: a key generated once
   * into DATA_DIR/keys/my-number.key (mode 0600) and reused.
   */
  MY_NUMBER_KEY: z
    .string()
    .refine((s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s) && Buffer.from(s, 'base64').length === 32, {
      message: 'must be 32 bytes in base64 (for example: openssl rand -base64 32)',
    })
    .optional(),
});
export type Config = z.infer<typeof ZConfig> & { DATA_DIR: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const source = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.superRefine((c, ctx) => {
    const s3 = [
      c.UPLOAD_S3_ENDPOINT,
      c.UPLOAD_S3_BUCKET,
      c.UPLOAD_S3_ACCESS_KEY_ID,
      c.UPLOAD_S3_SECRET_ACCESS_KEY,
    ];
    if (s3.some((v) => v !== undefined) && s3.some((v) => v === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPLOAD_S3_ENDPOINT'],
        message:
          'set all of UPLOAD_S3_ENDPOINT, UPLOAD_S3_BUCKET, UPLOAD_S3_ACCESS_KEY_ID and UPLOAD_S3_SECRET_ACCESS_KEY, or none',
      });
    }
  }).safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, DATA_DIR: resolve(parsed.data.DATA_DIR) };
}
