import { numberFormat, parseYenInput, ZYenAmountInSen, type Locale, type Sen } from '@kabuto/contract';
import { z } from 'zod';

/** The decimal separator of a locale ("." in ja, en, zh; "," in es, fr), so that "1.000" means what it says. */
export function decimalSeparatorOf(locale: Locale): '.' | ',' {
  const part = numberFormat(locale)
    .formatToParts(1.5)
    .find((p) => p.type === 'decimal');
  return part?.value === ',' ? ',' : '.';
}

/** An amount typed in yen (thousands separators and full-width digits allowed) as sen, or null. */
export function parseAmountInput(text: string, locale: Locale): Sen | null {
  return parseYenInput(text, decimalSeparatorOf(locale));
}

/**
 * The amount field of the deposit and withdrawal forms: typed text in, whole yen as sen out, with the
 * contract's messages (keys, translated by the field): required, not an amount, not whole yen, too big.
 */
export function amountFieldSchema(locale: Locale) {
  return z
    .string({ error: 'validation.amountRequired' })
    .trim()
    .min(1, { error: 'validation.amountRequired', abort: true })
    .transform((text, ctx): number => {
      const value = parseAmountInput(text, locale);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: 'validation.amountWholeYen' });
        return z.NEVER;
      }
      return value;
    })
    .pipe(ZYenAmountInSen);
}
