import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('MARKET_UNIVERSE', () => {
  it('defaults to the Nikkei 225, also when set empty', () => {
    expect(loadConfig({}).MARKET_UNIVERSE).toBe('nikkei225');
    expect(loadConfig({ MARKET_UNIVERSE: '' }).MARKET_UNIVERSE).toBe('nikkei225');
  });

  it.each(['nikkei225', 'topix500', 'all'] as const)('accepts %s', (universe) => {
    expect(loadConfig({ MARKET_UNIVERSE: universe }).MARKET_UNIVERSE).toBe(universe);
  });

  it.each(['ALL', 'topix', 'everything', ' all'])(
    'refuses %j with a message naming it and the choices',
    (value) => {
      expect(() => loadConfig({ MARKET_UNIVERSE: value })).toThrow(ConfigError);
      expect(() => loadConfig({ MARKET_UNIVERSE: value })).toThrow(
        /MARKET_UNIVERSE: must be one of nikkei225, topix500, all/,
      );
    },
  );
});
