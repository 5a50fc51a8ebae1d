import { join } from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { templatesFolder } from './db/template.js';
import { DeploymentConflictError } from './realtime/deployment.js';
import { OffsetClock, systemClock } from './lib/clock.js';
import { seedDemo } from './seed.js';
import { BOOTSTRAP_ADMIN, ensureBootstrapAdmin } from './modules/console/operators.js';

async function main(): Promise<void> {
  // how long each step of the start took (logged once listening; bench:start reads the total)
  let mark = performance.now();
  const phases: Record<string, number> = { 'load modules': Math.round(mark) };
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - mark);
    mark = now;
  };
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: join(config.DATA_DIR, 'pglite'),
    // a new data folder starts as a copy of the build's migrated template when there is one (ADR 0046)
    templates: templatesFolder,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  phase('open database');
  await database.migrate();
  phase('migrate');

  const app = await buildApp({
    config,
    database,
    clock: config.CLOCK_CONTROL ? new OffsetClock() : systemClock,
    // another deployment took this one's Redis prefix while it ran (logged as fatal): stop (ADR 0052)
    onDeploymentConflict: () => {
      shutdown('deployment conflict', 1);
    },
  });
  phase('build app');
  const seed = config.DEMO_MODE
    ? await seedDemo(database.db, systemClock, config.DEMO_CASH_YEN, app.ctx.uploads, app.ctx.myNumberKey, {
        market: app.ctx.market,
        fees: app.ctx.fees,
      })
    : null;
  phase('demo data');
  const admin = await ensureBootstrapAdmin(database.db, systemClock, config.CONSOLE_ADMIN_PASSWORD);
  phase('operator');

  let closing = false;
  function shutdown(signal: string, code = 0): void {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(code))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  }
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    if (!(error instanceof DeploymentConflictError)) throw error;
    // a misconfiguration, told as one: no stack trace
    console.error(error.message);
    await database.close();
    process.exit(2);
  }
  phase('listen');
  app.log.info(
    {
      ms: phases,
      sinceProcessStart: Math.round(performance.now()),
      database: database.origin ?? database.driver,
    },
    `started in ${Math.round(performance.now())} ms`,
  );
  const shownHost = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.HOST) ? 'localhost' : config.HOST;
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.PORT;
  const origin = `http://${shownHost}:${port}`;
  const lines = [
    '',
    'Kabuto is running',
    `  App:        ${origin}/japan1/`,
    `  API:        ${origin}/api  (OpenAPI: ${origin}/api/openapi.json)`,
    `  Database:   ${database.driver === 'pglite' ? `embedded PGlite in ${join(config.DATA_DIR, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}`,
    `  SMS codes:  development sender, written to ${join(config.DATA_DIR, 'dev-sms-outbox.jsonl')}`,
    `  Market:     simulated Tokyo market, ${
      config.MARKET_CLOCK === 'always-open'
        ? 'always-open demo clock (MARKET_CLOCK=always-open)'
        : 'exchange hours in Tokyo time (MARKET_CLOCK=always-open keeps it in session)'
    }`,
    `  Console:    ${origin}/console/  (operators; the first administrator is \`${BOOTSTRAP_ADMIN}\`)`,
    `  Realtime:   ${config.REDIS_URL ? 'Redis pub/sub (REDIS_URL)' : 'in-process (set REDIS_URL to run several processes)'}`,
  ];
  if (seed) {
    lines.push(
      `  Demo:       invitation code ${seed.campaignCode}`,
      `              login ${seed.demoPhone} / ${seed.demoPassword}`,
      '              (demo mode: demo cash is not real money; market prices are simulated)',
    );
  }
  if (admin.created) {
    lines.push(
      admin.generatedPassword === null
        ? `  Operator:   ${BOOTSTRAP_ADMIN} created with CONSOLE_ADMIN_PASSWORD; change it at first login`
        : `  Operator:   ${BOOTSTRAP_ADMIN} / ${admin.generatedPassword}  (one-time password, shown only now: change it at first login)`,
    );
  }
  lines.push('  Stop with Ctrl-C', '');
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
