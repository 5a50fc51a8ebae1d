import { describe, expect, it } from 'vitest';
import { DEFAULT_INDICATORS, parseIndicators } from './indicator-settings';

describe('the remembered indicator choice', () => {
  it('starts with moving averages and volume', () => {
    expect(parseIndicators(null)).toEqual({
      ma: true,
      volume: true,
      bollinger: false,
      ichimoku: false,
      macd: false,
      rsi: false,
    });
  });

  it('reads what was stored, and falls back to the default for anything unreadable', () => {
    expect(parseIndicators('{"macd":true,"rsi":true,"ma":false}')).toEqual({
      ...DEFAULT_INDICATORS,
      macd: true,
      rsi: true,
      ma: false,
    });
    expect(parseIndicators('{"macd":"yes","other":true}')).toEqual(DEFAULT_INDICATORS);
    expect(parseIndicators('not json')).toEqual(DEFAULT_INDICATORS);
    expect(parseIndicators('null')).toEqual(DEFAULT_INDICATORS);
  });
});
