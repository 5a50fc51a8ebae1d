import { describe, expect, it } from 'vitest';
import { FixedClock } from '../lib/clock.js';
import { BAR_PERIODS, UnknownSymbolError, type MarketDataProvider } from './provider.js';
import { MarketSimulator } from './simulator.js';

describe('MarketDataProvider', () => {
  // the simulator is usable wherever the interface is expected
  const provider: MarketDataProvider = new MarketSimulator({
    clock: new FixedClock('2026-02-09T01:15:30Z'), // Monday 10:15:30 in Tokyo
    codes: ['7203', '9984'],
  });

  it.each(BAR_PERIODS)('serves %s bars in time order', async (period) => {
    const bars = await provider.bars('7203', period, { limit: 50 });
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.every((b, i) => i === 0 || (bars[i - 1]?.time ?? '') < b.time)).toBe(true);
  });

  it('quotes only its universe and says the prices are simulated', () => {
    expect(provider.simulated).toBe(true);
    expect(provider.codes).toEqual(['7203', '9984']);
    expect(provider.quote('7203')?.simulated).toBe(true);
    expect(new UnknownSymbolError('0000').message).toContain('0000');
    expect(() => new MarketSimulator({ codes: ['1301'] })).toThrow(UnknownSymbolError);
  });
});
