import { describe, expect, it } from 'vitest';
import { channelHours, dayRanges } from './channel-hours';

const WEEKDAYS = { days: [1, 2, 3, 4, 5], opens: '09:00', closes: '17:00' };
// Thursday 2026-11-26, 10:00 in Tokyo
const THURSDAY_10 = new Date('2026-11-26T01:00:00Z');

describe('a channel’s hours', () => {
  it('reads consecutive days as ranges, in the reader’s language', () => {
    expect(dayRanges([1, 2, 3, 4, 5], 'en')).toBe('Mon–Fri');
    expect(dayRanges([5, 1, 2, 3, 4, 7], 'en')).toBe('Mon–Fri, Sun');
    expect(dayRanges([1, 3, 6], 'en')).toBe('Mon, Wed, Sat');
    expect(dayRanges([1, 2, 3, 4, 5], 'ja', '〜')).toBe('月〜金');
    expect(dayRanges([6, 7], 'fr')).toBe('sam.–dim.');
  });

  it('needs no second line for a reader on Tokyo’s time', () => {
    for (const zone of ['Asia/Tokyo', 'Asia/Seoul']) {
      const h = channelHours(WEEKDAYS, 'ja', THURSDAY_10, zone, '〜');
      expect(h).toMatchObject({ days: '月〜金', tokyo: '09:00〜17:00', local: null, openNow: true });
    }
  });

  it('gives a reader elsewhere the same hours in their zone, with the day when it changes', () => {
    expect(channelHours(WEEKDAYS, 'fr', THURSDAY_10, 'Europe/Paris').local).toEqual({
      zone: 'Europe/Paris',
      from: '01:00',
      to: '09:00',
      dayShift: 0,
    });
    // 09:00 in Tokyo is 19:00 the evening before in New York (EST in November)
    expect(channelHours(WEEKDAYS, 'en', THURSDAY_10, 'America/New_York').local).toEqual({
      zone: 'America/New_York',
      from: '19:00',
      to: '03:00',
      dayShift: -1,
    });
    // and New York's summer time moves it an hour
    const july = new Date('2026-07-02T01:00:00Z');
    expect(channelHours(WEEKDAYS, 'en', july, 'America/New_York').local?.from).toBe('20:00');
  });

  it('is open only on a staffed day between its hours, Tokyo time', () => {
    const at = (iso: string) => channelHours(WEEKDAYS, 'en', new Date(iso), 'Europe/Paris').openNow;
    expect(at('2026-11-26T00:00:00Z')).toBe(true); // Thursday 09:00 in Tokyo
    expect(at('2026-11-25T23:59:00Z')).toBe(false); // Thursday 08:59
    expect(at('2026-11-26T08:00:00Z')).toBe(false); // Thursday 17:00: closed
    expect(at('2026-11-28T01:00:00Z')).toBe(false); // Saturday 10:00
  });
});
