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

describe('TRUST_PROXY (ADR 0030)', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['yes', true],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8, 192.168.1.1,::1', '10.0.0.0/8,192.168.1.1,::1'],
  ])('reads %j as %j', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['maybe', '10.0.0.0/33', 'proxy.example', '10.0.0.1,'])('refuses %j', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});
