/**
 * `npm run build`'s last server step: the migrated PGlite data folder that a first start copies instead of
 * running initdb and every migration (src/db/template.ts, ADR 0046). Does nothing when the template of the
 * current migrations and PGlite is already there.
 */
import { makePgliteTemplate } from '../db/client.js';

const started = performance.now();
const { path, made } = await makePgliteTemplate();
console.log(
  made
    ? `PGlite template made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path}`
    : `PGlite template up to date: ${path}`,
);
