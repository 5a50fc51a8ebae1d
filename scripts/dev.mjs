// `npm run dev`: the API with reload (tsx watch, TypeScript sources) and the Vite dev servers of the web
// app (port 5173) and the operator console (port 5174), which proxy /api to it. Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { checkNode, ensureInstalled, root } from './lib.mjs';

checkNode();
ensureInstalled();

const children = [
  spawn('npx', ['tsx', 'watch', '--conditions=@kabuto/source', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    // the web app's dev server proxies the WebSocket with its own page's origin (ADR 0032)
    env: {
      ...process.env,
      WS_ALLOWED_ORIGINS: process.env.WS_ALLOWED_ORIGINS ?? 'http://127.0.0.1:5173,http://localhost:5173',
    },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { cwd: `${root}/apps/console`, stdio: 'inherit' }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) child.on('exit', (code) => (process.exitCode ??= code ?? 0));
