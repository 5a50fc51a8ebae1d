// `npm start`: installs what is missing, builds what is stale, then runs the server (which migrates,
// seeds the demo on first start and serves the web app and the API on one port).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { checkNode, ensureBuilt, ensureInstalled, root } from './lib.mjs';

checkNode();
ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
