import { priceLimits } from './limits.js';
import { roundToTick, tickDown, tickUp, type TickRounding } from '@kabuto/contract';

/**
 * The price rules a simulated series follows: integer prices on a grid, and daily limits. Stocks use
 * sen on the TSE tick table with the TSE daily limits; indices use hundredths of a point with no limits.
 */
export interface PriceGrid {
  round(value: number, mode: TickRounding): number;
  up(price: number): number;
  down(price: number): number;
  limits(prevClose: number): { lower: number; upper: number };
}

export function stockGrid(isTopix500: boolean): PriceGrid {
  return {
    round: (value, mode) => roundToTick(value, isTopix500, mode),
    up: (price) => tickUp(price, isTopix500),
    down: (price) => tickDown(price, isTopix500),
    limits: (prevClose) => priceLimits(prevClose, isTopix500),
  };
}

/** Index levels in hundredths of a point: any positive integer, no daily limit. */
export const INDEX_GRID: PriceGrid = {
  round: (value, mode) =>
    Math.max(1, mode === 'down' ? Math.floor(value) : mode === 'up' ? Math.ceil(value) : Math.round(value)),
  up: (price) => price + 1,
  down: (price) => Math.max(1, price - 1),
  limits: () => ({ lower: 1, upper: Number.MAX_SAFE_INTEGER }),
};
