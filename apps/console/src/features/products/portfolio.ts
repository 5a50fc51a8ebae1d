import {
  WEIGHT_TOTAL_BP,
  parseYenInput,
  type Sen,
  type TProductConstituent,
  type TPublishProductBody,
} from '@kabuto/contract';

/**
 * What the product forms type, turned into the contract's units without floating point (ADR 0027): weights
 * in percent with up to two decimals are basis points, the annual fee in percent with up to four decimals
 * is parts per million, amounts in yen are sen (parseYenInput).
 */

/** A decimal typed with at most `decimals` fraction digits, as an integer of that many places; else null. */
export function scaledOf(text: string | null | undefined, decimals: number): number | null {
  if (text === null || text === undefined) return null;
  const plain = text.normalize('NFKC').trim().replace(/%$/, '').trim();
  const match = new RegExp(`^(\\d{1,9})(?:\\.(\\d{1,${String(decimals)}}))?$`).exec(plain);
  if (!match) return null;
  return Number(match[1]) * 10 ** decimals + Number((match[2] ?? '').padEnd(decimals, '0'));
}

/** A weight typed in percent (e.g. "33.33") in basis points, or null when it is not one. */
export const weightBpOf = (text: string | null | undefined): number | null => scaledOf(text, 2);

/** An annual fee typed in percent (e.g. "0.1") in parts per million (1,000), or null. */
export const feePpmOf = (text: string | null | undefined): number | null => scaledOf(text, 4);

/** A basis-point figure as the percent the forms take ("2500" → "25", "3333" → "33.33"). */
export function percentInputOf(value: number, decimals: number): string {
  const whole = Math.floor(value / 10 ** decimals);
  const fraction = String(value % 10 ** decimals)
    .padStart(decimals, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${String(whole)}.${fraction}`;
}

/** One constituent row of a form: a stock code and its weight as typed, either possibly still empty. */
export interface ConstituentRow {
  code?: string | null;
  weight?: string | null;
}

/** The sum of the rows' weights in basis points (rows not yet a valid weight count as 0). */
export function totalBp(rows: readonly (ConstituentRow | undefined)[] | undefined): number {
  return (rows ?? []).reduce((sum, row) => sum + (weightBpOf(row?.weight) ?? 0), 0);
}

export type PortfolioProblem = 'weightsSum' | 'duplicate' | 'empty';

/**
 * Why a list of rows is not a portfolio the server takes, checked before sending: no row, weights that do not
 * sum to exactly 100%, or a stock twice. Null when it is one.
 */
export function portfolioProblem(
  rows: readonly (ConstituentRow | undefined)[] | undefined,
): PortfolioProblem | null {
  const list = rows ?? [];
  if (list.length === 0) return 'empty';
  const codes = list.map((r) => r?.code).filter((c): c is string => typeof c === 'string' && c !== '');
  if (new Set(codes).size !== codes.length) return 'duplicate';
  if (totalBp(list) !== WEIGHT_TOTAL_BP) return 'weightsSum';
  return null;
}

export function constituentsOf(rows: readonly ConstituentRow[]): TProductConstituent[] {
  return rows.map((r) => ({ code: r.code ?? '', weight_bp: weightBpOf(r.weight) ?? 0 }));
}

/** The publish form's values, as typed. */
export interface PublishValues {
  issuer: string;
  name: string;
  strategy: string;
  risk_disclosure: string;
  constituents: ConstituentRow[];
  fund_cap: string;
  /** YYYY-MM-DD */
  deadline: string;
  min_investment: string;
  fee_percent: string;
}

const senOf = (text: string): Sen => parseYenInput(text) ?? (0 as Sen);

/** The request body of POST /api/console/products from the form's (validated) values. */
export function publishBodyOf(v: PublishValues): TPublishProductBody {
  return {
    issuer: v.issuer,
    name: v.name,
    strategy: v.strategy,
    risk_disclosure: v.risk_disclosure,
    constituents: constituentsOf(v.constituents),
    fund_cap: senOf(v.fund_cap),
    deadline: v.deadline,
    min_investment: senOf(v.min_investment),
    management_rate_ppm: feePpmOf(v.fee_percent) ?? 0,
  };
}

/**
 * Where a server validation issue belongs on the forms: the server names the body's fields
 * (constituents.0.weight_bp, management_rate_ppm), the forms name what is typed.
 */
export function formFieldOf(field: string): (string | number)[] {
  const path = field
    .replace(/\.weight_bp$/, '.weight')
    .replace(/^management_rate_ppm$/, 'fee_percent')
    .split('.');
  return path.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}
