import type { ApiRead } from '../api/early';

/** GET /api/market/status, the market's clock: sent by its query and, for the first page, by the boot script. */
export const marketStatusRead = (): ApiRead => ({ path: '/market/status' });
