import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { constants as zlibConstants } from 'node:zlib';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION, ERRORS, localeOf, translate, yen, type FeeSchedule } from '@kabuto/contract';
import type { Config } from './config.js';
import type { Database, Db } from './db/types.js';
import { isMovable, type Clock } from './lib/clock.js';
import { DevSmsSender, type SmsSender } from './lib/sms.js';
import { randomBytes } from 'node:crypto';
import { isBusinessDay } from './market/calendar.js';
import type { MarketDataProvider } from './market/provider.js';
import { MarketSimulator } from './market/simulator.js';
import { marketRoutes } from './modules/market/routes.js';
import { Matcher } from './modules/trading/matcher.js';
import { clockRoutes } from './modules/jobs/clock-routes.js';
import { refuseControlCharacters } from './plugins/control-chars.js';
import { securityHeaders } from './plugins/transport.js';
import { lazyRequestLogger } from './plugins/request-logger.js';
import {
  checkResponsesByDefault,
  createResponseSerializerCompiler,
  type SerializerPlan,
} from './plugins/serializer.js';
import { tradingRoutes } from './modules/trading/routes.js';
import { ledgerRoutes } from './modules/ledger/routes.js';
import { taxRoutes } from './modules/tax/routes.js';
import { SessionCache, resolveSession, type Revocation } from './modules/auth/sessions.js';
import { MARKET_CHANNEL, MAX_BUFFERED_BYTES, RealtimeHub } from './realtime/hub.js';
import { DeploymentClaim, deploymentId, type DeploymentConflictError } from './realtime/deployment.js';
import { RedisLeader, SoleLeader } from './realtime/leader.js';
import { LocalPubSub, RedisPubSub, type PubSub } from './realtime/pubsub.js';
import { realtimeRoutes } from './realtime/routes.js';
import { accountRoutes } from './modules/account/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { passkeyRoutes } from './modules/passkeys/routes.js';
import { sessionRoutes } from './modules/auth/session-routes.js';
import type { SessionPolicy } from './modules/auth/sessions.js';
import { healthRoutes } from './modules/health/routes.js';
import { shedLoad, watchEventLoop } from './plugins/load-shedding.js';
import { registerErrorHandling } from './plugins/errors.js';
import { consoleAuthRoutes } from './modules/console/auth-routes.js';
import { consolePasskeyRoutes } from './modules/console/passkey-routes.js';
import { DiskUploadStore, type UploadStore } from './modules/uploads/storage.js';
import { S3UploadStore } from './modules/uploads/s3.js';
import type { ImageLimits } from './modules/uploads/image.js';
import { uploadRoutes } from './modules/uploads/routes.js';
import { messageRoutes } from './modules/messages/routes.js';
import { identityRoutes } from './modules/identity/routes.js';
import { openingRoutes } from './modules/opening/routes.js';
import { openingConsoleRoutes } from './modules/opening/console-routes.js';
import { bankingRoutes } from './modules/banking/routes.js';
import { fundsRoutes } from './modules/funds/routes.js';
import { ipoConsoleRoutes, ipoRoutes } from './modules/ipo/routes.js';
import { loanRoutes } from './modules/loans/routes.js';
import { loanConsoleRoutes } from './modules/loans/console-routes.js';
import { reconciliationRoutes } from './modules/funds/reconciliation-routes.js';
import { reviewRoutes } from './modules/funds/review-routes.js';
import { productConsoleRoutes } from './modules/products/console-routes.js';
import { productRoutes } from './modules/products/routes.js';
import { dividendConsoleRoutes, dividendRoutes } from './modules/dividends/routes.js';
import { loadPriceAdjustments, PRICE_ADJUSTMENTS_CHANNEL } from './modules/dividends/price-adjustments.js';
import { LISTINGS_CHANNEL, loadListings } from './modules/ipo/listings.js';
import { adminRoutes } from './modules/console/admin-routes.js';
import { lookupRoutes } from './modules/console/lookup-routes.js';
import { loadMyNumberKey } from './modules/opening/my-number.js';
import { newsConsoleRoutes, newsRoutes } from './modules/news/routes.js';
import { supportConsoleRoutes, supportRoutes } from './modules/support/routes.js';
import { bannerConsoleRoutes, bannerRoutes } from './modules/banners/routes.js';
import type { SmsCaps, ThrottlePolicy } from './modules/auth/throttle.js';

/** Everything a route needs, built once per app (and per test). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  sms: SmsSender;
  sessionPolicy: SessionPolicy;
  /** live sessions recently read from the database (ADR 0014) */
  sessionCache: SessionCache;
  /** Call once a revocation has committed: every process drops what it cached of those sessions. */
  revokedSessions: (revocation: Revocation) => Promise<void>;
  /** operator sessions of the console */
  consoleSessionPolicy: SessionPolicy;
  lockMinutes: number;
  /** the customers' failed-login throttle and the SMS caps (ADR 0030) */
  loginThrottle: ThrottlePolicy;
  smsCaps: SmsCaps;
  demoCashYen: number;
  isBusinessDay: (date: string) => boolean;
  market: MarketDataProvider;
  pubsub: PubSub;
  realtime: RealtimeHub;
  fees: FeeSchedule;
  /** where uploaded images are kept (DATA_DIR/uploads, or an S3-compatible bucket) */
  uploads: UploadStore;
  /** the size cap of stored photos and of their thumbnails */
  images: ImageLimits;
  /** this process's id among several (logs, health, the tick-producer lease) */
  nodeId: string;
  /** the AES-256 key of My Numbers at rest (ADR 0022) */
  myNumberKey: Buffer;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  clock: Clock;
  /** Where verification codes go; the development sender (log and file in DATA_DIR) by default. */
  sms?: SmsSender;
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** A market data provider; the simulator on the app's clock by default. */
  market?: MarketDataProvider;
  /** Compete for producing live ticks when the app is ready (default true; tests that need no stream pass false). */
  produceTicks?: boolean;
  /** Drop a WebSocket client whose unsent data passes this many bytes (default MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number;
  /**
   * Check every answer against its zod schema as well as serialising it compiled, and the two JSONs equal
   * (ADR 0042); on under tests (NODE_ENV=test) by default, off otherwise.
   */
  checkResponses?: boolean;
  /** Told which routes' answers are serialised compiled and which by zod (and why), as they are registered. */
  onSerializerPlan?: (plan: SerializerPlan) => void;
  /**
   * Told when, running, this process finds its Redis prefix claimed by another deployment (ADR 0052): the
   * process must stop (main.ts exits). By default the app closes itself.
   */
  onDeploymentConflict?: (error: DeploymentConflictError) => void;
  /** The claim's time-to-live and renewal period (default 30 s and 10 s; tests shorten them). */
  deploymentClaim?: { ttlMs: number; everyMs: number };
}

/** Where processes announce revoked sessions to each other (ADR 0014). */
const SESSIONS_CHANNEL = 'sessions.revoked';

function parseRevocation(message: string): Revocation | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (Number.isInteger(value['sessionId'])) return { sessionId: value['sessionId'] as number };
    if (Number.isInteger(value['userId']) && Number.isInteger(value['exceptSessionId'])) {
      return { userId: value['userId'] as number, exceptSessionId: value['exceptSessionId'] as number };
    }
  } catch {
    // not JSON: not ours
  }
  return null;
}

/** API answers smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * A built front end: its brotli and gzip copies (written at build by scripts/precompress.mjs) sent as they
 * are when the client accepts them; Vite's content-hashed files under assets/ cached for a year as immutable;
 * everything else (index.html, the service worker, the manifest) revalidated on every load, so that a new
 * version is seen at once.
 */
/** Trusts the `hops` proxies nearest the server: X-Forwarded-For is read from the right that far, no further. */
export function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function staticFiles(root: string, prefix: string, decorateReply: boolean) {
  return {
    root,
    prefix,
    index: ['index.html'],
    decorateReply,
    preCompressed: true,
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header('cache-control', isHashedAsset(path) ? IMMUTABLE : 'no-cache');
    },
  };
}
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Vite writes content-hashed names (name-[hash].ext) under assets/; the path may be the .br or .gz copy's. */
const isHashedAsset = (path: string) => /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(?:\.br|\.gz)?$/.test(path);

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
const defaultConsoleDist = fileURLToPath(new URL('../../console/dist', import.meta.url));

/** Uploads go to the S3-compatible bucket when one is configured, else under DATA_DIR/uploads. */
function uploadStore(config: Config): UploadStore {
  const { UPLOAD_S3_ENDPOINT: endpoint, UPLOAD_S3_BUCKET: bucket } = config;
  const { UPLOAD_S3_ACCESS_KEY_ID: accessKeyId, UPLOAD_S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (endpoint && bucket && accessKeyId && secretAccessKey) {
    return new S3UploadStore({
      endpoint,
      bucket,
      region: config.UPLOAD_S3_REGION,
      accessKeyId,
      secretAccessKey,
    });
  }
  return new DiskUploadStore(join(config.DATA_DIR, 'uploads'));
}

/**
 * What the router refuses before any route or hook runs (a path that is not valid URL encoding, a path
 * parameter over the router's length limit) still leaves as the envelope: a VALIDATION failure in the
 * language of the request's `lang`.
 */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  let lang: string | null = null;
  try {
    lang = new URL(request.raw.url ?? '/', 'http://localhost').searchParams.get('lang');
  } catch {
    lang = null;
  }
  const msg = translate(localeOf(lang), 'errors.VALIDATION');
  void reply.status(ERRORS.VALIDATION.http).send({
    code: ERRORS.VALIDATION.code,
    msg,
    data: { issues: [{ field: 'url', rule: error.code, message: msg }] },
  });
}

/**
 * Pino's options: the level, and one readable line per event on a terminal (pino-pretty, in a worker thread)
 * or JSON lines when not on a terminal or when LOG_FORMAT=json.
 */
export function loggerOptions(
  config: Pick<Config, 'LOG_FORMAT' | 'LOG_LEVEL'>,
  terminal: boolean = process.stdout.isTTY,
) {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && terminal);
  if (!pretty) return { level: config.LOG_LEVEL };
  return {
    level: config.LOG_LEVEL,
    transport: {
      target: 'pino-pretty',
      options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId' },
    },
  };
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    // Fastify's two lines per request cost more than the request itself: the access log is ours (below).
    logController: new LogController({ disableRequestLogging: true }),
    // and a request's logger is made when it first writes, not for every request (ADR 0047)
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: config.BODY_LIMIT,
    // a hop count trusts that many proxies nearest the server, as proxy-addr counts hops (ADR 0030)
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    // Every route keeps its own schema; unknown query keys other than declared ones are ignored.
    ajv: { customOptions: { removeAdditional: false } },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers serialised by fast-json-stringify compiled from the zod schema where it converts, zod otherwise
  // (ADR 0042); which is which is logged at debug when the app is ready.
  const serializerPlans: SerializerPlan[] = [];
  app.setSerializerCompiler(
    createResponseSerializerCompiler({
      check: options.checkResponses ?? checkResponsesByDefault(),
      onPlan: (plan) => {
        serializerPlans.push(plan);
        options.onSerializerPlan?.(plan);
      },
    }),
  );

  const nodeId = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const market =
    options.market ??
    new MarketSimulator({
      clock: options.clock,
      mode: config.MARKET_CLOCK,
      seed: config.MARKET_SEED,
      universe: config.MARKET_UNIVERSE,
      tickIntervalMs: config.MARKET_TICK_MS,
      tickFraction: config.MARKET_TICK_FRACTION,
    });
  const redis = config.REDIS_URL ? new RedisPubSub(config.REDIS_URL, config.REDIS_PREFIX) : undefined;
  const pubsub: PubSub = redis ?? new LocalPubSub();
  /** whether the pub/sub (Redis) is reachable, as last told; quotes are stale without it unless produced here */
  let pubsubAvailable = true;
  const markStale = () => {
    realtime.setStale(!pubsubAvailable && !leader.isSolo);
  };
  const leader = redis
    ? new RedisLeader(
        redis.client,
        nodeId,
        `${config.REDIS_PREFIX}market-leader`,
        undefined,
        undefined,
        undefined,
        config.MARKET_SOLO_FALLBACK
          ? {
              channel: `${config.REDIS_PREFIX}${MARKET_CHANNEL}`,
              onSolo: (solo) => {
                if (solo)
                  app.log.warn(
                    { node: nodeId },
                    'Redis unreachable and this process alone: it keeps producing ticks in-process',
                  );
                else app.log.info({ node: nodeId }, 'producing under the Redis lease again');
                markStale();
              },
            }
          : undefined,
      )
    : new SoleLeader();
  const sessionCache = new SessionCache(config.SESSION_CACHE_SECONDS * 1000);
  /** What a revocation ends in this process: its cached sessions and its sockets' user streams. */
  const endHere = (revocation: Revocation) => {
    sessionCache.forget(revocation);
    realtime.endSessions(revocation);
  };
  const revokedSessions = async (revocation: Revocation) => {
    endHere(revocation);
    try {
      await pubsub.publish(SESSIONS_CHANNEL, JSON.stringify(revocation));
    } catch (error) {
      // The revocation is in the database; other processes see it when their cached copy expires.
      app.log.warn({ err: error }, 'could not announce a session revocation');
    }
  };
  const realtime = new RealtimeHub({
    market,
    pubsub,
    leader,
    log: app.log,
    nodeId,
    maxBufferedBytes: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
    authenticate: (token) =>
      resolveSession(options.database.db, options.clock, app.ctx.sessionPolicy, token, sessionCache),
  });

  app.decorate('ctx', {
    config,
    database: options.database,
    db: options.database.db,
    clock: options.clock,
    sms: options.sms ?? new DevSmsSender(config.DATA_DIR, app.log),
    sessionPolicy: {
      idleMs: config.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
    },
    sessionCache,
    revokedSessions,
    consoleSessionPolicy: {
      idleMs: config.CONSOLE_SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: config.CONSOLE_SESSION_ABSOLUTE_HOURS * 3_600_000,
    },
    lockMinutes: config.LOGIN_LOCK_MINUTES,
    loginThrottle: {
      accountFree: config.LOGIN_FREE_FAILURES,
      clientFree: config.LOGIN_CLIENT_FREE_FAILURES,
      delaySeconds: config.LOGIN_DELAY_SECONDS,
      maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS,
    },
    smsCaps: { perClient: config.SMS_DAILY_PER_CLIENT, perRange: config.SMS_DAILY_PER_RANGE },
    demoCashYen: config.DEMO_MODE ? config.DEMO_CASH_YEN : 0,
    isBusinessDay,
    market,
    pubsub,
    realtime,
    nodeId,
    fees: { bp: config.FEE_BP, min: yen(config.FEE_MIN_YEN), max: yen(config.FEE_MAX_YEN) },
    uploads: uploadStore(config),
    images: { maxSide: config.UPLOAD_MAX_SIDE, thumbnailSide: config.UPLOAD_THUMBNAIL_SIDE },
    myNumberKey: loadMyNumberKey(config),
  } satisfies AppContext);
  // Redis lost or back (ADR 0032): logged once each way, and the sockets told their quotes may be stale.
  pubsub.onAvailability((available) => {
    if (available)
      app.log.info({ node: nodeId }, 'pub/sub (Redis) connection restored: the live stream resumes');
    else
      app.log.error(
        { node: nodeId },
        'pub/sub (Redis) connection lost: live quotes are stale until it returns',
      );
    pubsubAvailable = available;
    markStale();
  });
  const matcher = new Matcher(app, config.MATCH_INTERVAL_MS);
  realtime.runWhileLeader(matcher);

  let stopHearingRevocations: (() => Promise<void>) | undefined;
  let deploymentClaim: DeploymentClaim | undefined;
  let stopHearingAdjustments: (() => Promise<void>) | undefined;
  let stopHearingListings: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    app.log.debug(
      {
        compiled: serializerPlans.filter((p) => p.compiled).length,
        fallback: serializerPlans
          .filter((p) => !p.compiled)
          .map((p) => `${p.method} ${p.url} ${p.status}: ${p.reason ?? ''}`),
      },
      'response serializers',
    );
    if (redis) {
      // before hearing or telling anything under the prefix: it must be this deployment's (ADR 0052)
      const claim = new DeploymentClaim(
        redis.client,
        config.REDIS_PREFIX,
        await deploymentId(options.database.db),
        (error) => {
          app.log.fatal({ prefix: error.prefix, other: error.theirs }, error.message);
          if (options.onDeploymentConflict) options.onDeploymentConflict(error);
          else void app.close();
        },
        options.deploymentClaim?.ttlMs,
        options.deploymentClaim?.everyMs,
      );
      await claim.start();
      deploymentClaim = claim;
    }
    stopHearingRevocations = await pubsub.subscribe(SESSIONS_CHANNEL, (message) => {
      const revocation = parseRevocation(message);
      if (revocation) endHere(revocation);
    });
    // the dividends' ex-date price drops (ADR 0027), loaded now and again whenever one is published
    const reloadAdjustments = () =>
      loadPriceAdjustments(app.ctx).catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not load the price adjustments');
      });
    stopHearingAdjustments = await pubsub.subscribe(PRICE_ADJUSTMENTS_CHANNEL, () => {
      void reloadAdjustments();
    });
    await reloadAdjustments();
    // the IPOs listed on the simulated market (ADR 0035), loaded now (a restart) and again after each draw
    const reloadListings = () =>
      loadListings(app.ctx).catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not load the listed IPOs');
      });
    stopHearingListings = await pubsub.subscribe(LISTINGS_CHANNEL, () => {
      void reloadListings();
    });
    await reloadListings();
    await realtime.start({ produce: options.produceTicks ?? true });
  });
  app.addHook('onClose', async () => {
    await stopHearingRevocations?.();
    await stopHearingAdjustments?.();
    await stopHearingListings?.();
    await realtime.stop();
    await deploymentClaim?.stop();
    await pubsub.close();
    if (app.ctx.uploads instanceof S3UploadStore) app.ctx.uploads.close();
  });

  app.decorateRequest('locale', 'ja');
  app.decorateRequest('session', null);
  app.decorateRequest('operator', null);
  // The hooks every request passes are callback-style, not async: an async hook costs a promise and a
  // microtask per request (issue 21's framework overhead, bench/README.md).
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const slow = ms >= config.SLOW_REQUEST_MS;
    const failed = reply.statusCode >= 500;
    if (slow || failed || (config.ACCESS_LOG_SAMPLE > 0 && Math.random() < config.ACCESS_LOG_SAMPLE)) {
      const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(ms) };
      if (failed || slow) request.log.warn(line, slow ? 'slow request' : 'request failed');
      else request.log.info(line, 'request');
    }
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    request.locale = localeOf(query?.['lang']);
    done();
  });
  securityHeaders(app);

  registerErrorHandling(app);
  // before any other work: a shed request costs no body parsing, validation or session lookup
  const loop =
    config.MAX_EVENT_LOOP_DELAY_MS > 0
      ? watchEventLoop(config.MAX_EVENT_LOOP_DELAY_MS, config.EVENT_LOOP_DELAY_WINDOW_MS, app.log)
      : undefined;
  if (loop) {
    app.addHook('onClose', async () => {
      loop.stop();
    });
  }
  shedLoad(app, config.MAX_IN_FLIGHT, loop?.pressure);
  refuseControlCharacters(app);

  // With REDIS_URL the counts live in Redis, shared by every process (ADR 0030); a Redis outage lets requests
  // through rather than refusing everyone (the per-account throttle and secret counters are in PostgreSQL).
  const rateLimitRedis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  if (rateLimitRedis) {
    rateLimitRedis.on('error', () => undefined); // the pub/sub connection logs the outage once
    app.addHook('onClose', async () => {
      rateLimitRedis.disconnect();
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(rateLimitRedis
      ? { redis: rateLimitRedis, nameSpace: `${config.REDIS_PREFIX}rate:`, skipOnError: true }
      : {}),
    errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, code: 'RATE_LIMITED' }),
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Kabuto API',
        version: APP_VERSION,
        description:
          'Every answer is {code, msg, data}; code 1 is success. `lang` query chooses the language of msg; ' +
          'the `token` header authenticates. Money is an integer count of sen (1/100 yen).',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'token' },
          operator: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  // A GET or HEAD has no body to inflate (Fastify never parses one): those routes leave out the compression
  // plugin's request-decompression hook, which every request would otherwise pay (ADR 0047).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.decompress === undefined && methods.every((m) => m === 'GET' || m === 'HEAD')) {
      route.decompress = false;
    }
  });
  // API answers above 1 KiB go out compressed when the client accepts it (brotli at a quality cheap enough
  // for every request; the front ends' files are compressed once, at build: see staticFiles below).
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(passkeyRoutes);
      await api.register(sessionRoutes);
      await api.register(accountRoutes);
      await api.register(marketRoutes);
      await api.register(tradingRoutes);
      await api.register(ledgerRoutes);
      await api.register(taxRoutes);
      await api.register(realtimeRoutes);
      await api.register(consoleAuthRoutes, { prefix: '/console' });
      await api.register(consolePasskeyRoutes, { prefix: '/console' });
      await api.register(uploadRoutes);
      await api.register(messageRoutes);
      await api.register(identityRoutes);
      await api.register(openingRoutes);
      await api.register(bankingRoutes);
      await api.register(fundsRoutes);
      await api.register(reviewRoutes, { prefix: '/console' });
      await api.register(reconciliationRoutes, { prefix: '/console' });
      await api.register(adminRoutes, { prefix: '/console' });
      await api.register(lookupRoutes, { prefix: '/console' });
      await api.register(openingConsoleRoutes, { prefix: '/console' });
      await api.register(productRoutes);
      await api.register(productConsoleRoutes, { prefix: '/console' });
      await api.register(dividendRoutes);
      await api.register(dividendConsoleRoutes, { prefix: '/console' });
      await api.register(ipoRoutes);
      await api.register(ipoConsoleRoutes, { prefix: '/console' });
      await api.register(loanRoutes);
      await api.register(loanConsoleRoutes, { prefix: '/console' });
      await api.register(newsRoutes);
      await api.register(newsConsoleRoutes, { prefix: '/console' });
      await api.register(supportRoutes);
      await api.register(supportConsoleRoutes, { prefix: '/console' });
      await api.register(bannerRoutes);
      await api.register(bannerConsoleRoutes, { prefix: '/console' });
      if (config.CLOCK_CONTROL && isMovable(options.clock)) {
        await api.register(clockRoutes, { clock: options.clock, settle: () => matcher.settle() });
      }
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );

  const webDist = config.WEB_DIST ?? defaultWebDist;
  if (existsSync(webDist)) await app.register(fastifyStatic, staticFiles(webDist, '/japan1/', true));
  const consoleDist = config.CONSOLE_DIST ?? defaultConsoleDist;
  if (existsSync(consoleDist))
    await app.register(fastifyStatic, staticFiles(consoleDist, '/console/', false));
  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/'));
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/japan1/'));
  app.get('/japan1', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/japan1/'));

  return app;
}
