import { ZLoanApply, parseYenInput, type Sen } from '@kabuto/contract';
import { z } from 'zod';

/** A yen figure typed as text (thousands separators and full-width digits allowed), or null. */
export function parseYen(text: string): number | null {
  const parsed = parseYenInput(text, '.');
  return parsed === null ? null : parsed / 100;
}

/** The amount as sen for the calculator, or null while it is not a whole, positive amount. */
export function amountOf(text: string): Sen | null {
  const parsed = parseYenInput(text, '.');
  return parsed !== null && parsed > 0 && parsed % 100 === 0 ? parsed : null;
}

const yenText = (key: string) =>
  z.string().transform((text, ctx): number => {
    const value = text.trim() === '' ? null : parseYen(text);
    if (value === null) {
      ctx.addIssue({ code: 'custom', message: `loans.validation.${key}` });
      return z.NEVER;
    }
    return value;
  });

/**
 * The application form: typed text in, the contract's request out, with the contract's messages (keys
 * the field translates): the server checks the same schema, the limit, the total-volume rule and the name.
 */
export const loanFormSchema = z
  .object({
    amount: z
      .string()
      .trim()
      .min(1, { error: 'loans.validation.amountRequired', abort: true })
      .transform((text, ctx): number => {
        const value = parseYenInput(text, '.');
        if (value === null) {
          ctx.addIssue({ code: 'custom', message: 'loans.validation.amountWholeYen' });
          return z.NEVER;
        }
        return value;
      }),
    full_name: z.string(),
    id_number: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    annual_income_yen: yenText('incomeRequired'),
    other_borrowing_yen: yenText('otherBorrowing'),
    agree: z.boolean(),
  })
  .pipe(ZLoanApply);
export type LoanFormInput = z.input<typeof loanFormSchema>;
export type LoanFormOutput = z.output<typeof loanFormSchema>;
