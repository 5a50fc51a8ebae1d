// `npm run build`'s last step: notes the build, so that `npm start` on a freshly built tree starts at once
// instead of building it again (scripts/lib.mjs, ensureBuilt).
import { writeBuildStamp } from './lib.mjs';

writeBuildStamp();
