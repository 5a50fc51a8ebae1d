import { describe, expect, it } from 'vitest';
import { rootFontSizeFor } from './rem';

describe('root font size', () => {
  it('is width / 23.4375, capped at 960 px', () => {
    expect(rootFontSizeFor(375)).toBe(16);
    expect(rootFontSizeFor(750)).toBe(32);
    expect(rootFontSizeFor(1920)).toBeCloseTo(40.96);
  });
});
