// `npm run dev`: the API with reload (tsx watch, TypeScript sources) and the Vite dev server, which
// proxies /api to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { checkNode, ensureInstalled, root } from './lib.mjs';

checkNode();
ensureInstalled();

const children = [
  spawn('npx', ['tsx', 'watch', '--conditions=@kabuto/source', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) child.on('exit', (code) => (process.exitCode ??= code ?? 0));
