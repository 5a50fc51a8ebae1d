import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The built server (apps/server/dist/main.js, `npm run build` first) on `port`, with the demo data in a fresh
 * `dataDir` (PGlite) and the market always open, as the first-load benches measure it. `env` adds to or
 * overrides that (WEB_DIST serves another build of the web app; TRUST_PROXY behind HAProxy). Resolves once
 * /api/health answers; a fresh folder is migrated and seeded first, slow on a loaded machine.
 */
export async function startBuiltServer(
  port: number,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const server = spawn(process.execPath, [new URL('../apps/server/dist/main.js', import.meta.url).pathname], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DEMO_MODE: 'true',
      MARKET_CLOCK: 'always-open',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill();
  throw new Error('the server did not answer /api/health within 180 s');
}
