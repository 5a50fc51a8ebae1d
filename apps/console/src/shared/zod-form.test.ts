import { ZReject, ZSettings } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { validateWithSchema, type ZodFormTexts } from './zod-form';

const catalogue: Record<string, string> = {
  'validation.reasonRequired': 'Please give a reason',
  'validation.windowOrder': 'The end must be after the start',
};
const texts: ZodFormTexts = {
  translate: (key) => catalogue[key],
  generic: (key, field) => `${key}:${field}`,
  label: (path) => path.join('.'),
};

describe('validateWithSchema', () => {
  it('answers the parsed value', () => {
    expect(validateWithSchema(ZReject, { reason: '  blurred photo ' }, texts)).toEqual({
      ok: true,
      value: { reason: 'blurred photo' },
    });
  });

  it('translates the schema’s catalogue keys onto the field', () => {
    expect(validateWithSchema(ZReject, { reason: ' ' }, texts)).toEqual({
      ok: false,
      fields: [{ name: ['reason'], errors: ['Please give a reason'] }],
    });
  });

  it('names nested fields and falls back to a generic message naming the field', () => {
    const withdrawal = ZSettings.shape.withdrawal;
    const result = validateWithSchema(
      withdrawal,
      { min_yen: 0, windows: [{ start: '15:00', end: '09:00' }], second_approval_over_yen: 1 },
      texts,
    );
    expect(result).toEqual({
      ok: false,
      fields: [
        { name: ['min_yen'], errors: ['validation.tooSmall:min_yen'] },
        { name: ['windows', 0, 'end'], errors: ['The end must be after the start'] },
      ],
    });
  });

  it('says that an empty field is required rather than of the wrong type', () => {
    const result = validateWithSchema(
      ZSettings.shape.withdrawal,
      { min_yen: null, windows: [{ start: '09:00', end: '11:30' }], second_approval_over_yen: 5 },
      texts,
    );
    expect(result).toEqual({
      ok: false,
      fields: [{ name: ['min_yen'], errors: ['validation.required:min_yen'] }],
    });
  });
});
