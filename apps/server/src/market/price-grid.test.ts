import { describe, expect, it } from 'vitest';
import { INDEX_GRID, stockGrid } from './price-grid.js';

describe('price grids', () => {
  it('stock grids follow the tick table and the daily limits', () => {
    const t5 = stockGrid(true);
    expect(t5.round(99_994, 'nearest')).toBe(99_990);
    expect(t5.up(100_000)).toBe(100_050);
    expect(t5.down(100_050)).toBe(100_000);
    expect(t5.limits(100_000)).toEqual({ lower: 70_000, upper: 130_000 });
    expect(stockGrid(false).round(99_994, 'nearest')).toBe(100_000);
  });

  it('the index grid is hundredths of a point without limits', () => {
    expect(INDEX_GRID.round(369_900.4, 'nearest')).toBe(369_900);
    expect(INDEX_GRID.round(369_900.4, 'up')).toBe(369_901);
    expect(INDEX_GRID.up(5)).toBe(6);
    expect(INDEX_GRID.down(1)).toBe(1);
    expect(INDEX_GRID.limits(100).upper).toBe(Number.MAX_SAFE_INTEGER);
  });
});
