import { describe, expect, it } from 'vitest';
import { maskPhone, normalizeJapaneseMobile } from './phone.js';

describe('normalizeJapaneseMobile', () => {
  it.each([
    ['09012345678', '09012345678'],
    ['090-1234-5678', '09012345678'],
    ['080 1234 5678', '08012345678'],
    ['+81 70-1234-5678', '07012345678'],
    ['+819012345678', '09012345678'],
    ['+81 090 1234 5678', '09012345678'],
    ['0081-80-1234-5678', '08012345678'],
    ['０９０－１２３４－５６７８', '09012345678'],
    ['(090) 1234-5678', '09012345678'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeJapaneseMobile(input)).toBe(expected);
  });

  it.each(['0312345678', '06012345678', '0901234567', '090123456789', '+1 415 555 0100', 'abc', ''])(
    'refuses %j',
    (input) => {
      expect(normalizeJapaneseMobile(input)).toBeNull();
    },
  );

  it('masks the middle digits', () => {
    expect(maskPhone('09012345678')).toBe('090-****-5678');
  });
});
