import type { ErrorName } from '@kabuto/contract';

/**
 * The hosts staff may link to in a support message (ADR 0029): the firm's own site and the public bodies
 * customers are sent to about fraud. A subdomain of a listed host is allowed too.
 */
export const SUPPORT_LINK_ALLOW_LIST: readonly string[] = [
  'kabuto.example',
  'www.fsa.go.jp',
  'www.jsda.or.jp',
  'www.jpx.co.jp',
  'www.npa.go.jp',
  'www.kokusen.go.jp',
];

export interface Blocked {
  error: Extract<ErrorName, 'SUPPORT_BLOCKED_ACCOUNT' | 'SUPPORT_BLOCKED_PASSWORD' | 'SUPPORT_BLOCKED_LINK'>;
  params?: Record<string, string>;
}

const BANK_CONTEXT =
  /(口座|普通|当座|預金|支店|振込|振り込|ゆうちょ|記号|account|acct|iban|swift|branch|bank|账户|账号|帳戶|帳號|銀行|银行|cuenta|compte|banque|banco|virement|transferencia)/i;
const PASSWORD =
  /(パスワード|暗証番号|ログインID|password|passcode|passwd|\bpin\b|one[- ]?time code|認証コード|验证码|驗證碼|密码|密碼|contraseña|clave|mot de passe|code secret|code confidentiel)/i;
/** A sentence that tells the customer staff never ask (this notice is allowed). */
const NEGATION =
  /(ありません|いたしません|しません|決して|絶対に|\bnever\b|\bnot\b|don't|do not|绝不|絕不|不会|不會|nunca|jamais|\bne\b.{0,30}\bpas\b|\bno\b)/i;
/** http(s) links, and bare domains such as example.com/path */
const LINK = /\b(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:[/?#][^\s]*)?/gi;

function digitRuns(text: string): string[] {
  // Digits with single spaces or hyphens between them are one number (1234-567, 1 2 3 4 5 6 7).
  return (text.match(/\d(?:[\s\-‐−ー]?\d)*/g) ?? []).map((run) => run.replace(/\D/g, ''));
}

function hostAllowed(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return SUPPORT_LINK_ALLOW_LIST.some((allowed) => h === allowed || h.endsWith(`.${allowed}`));
}

/**
 * Why a staff message must not be sent, or null. The three signs of the known script of investment fraud:
 * a bank account number (7 or 8 digits, or any 6 or more next to a word about banks; ゆうちょ's 記号番号),
 * a request for a password or code (a sentence that says staff never ask passes), and a link to a host
 * outside the allow-list. Full-width digits and letters are read as their ASCII forms.
 */
export function checkStaffMessage(raw: string): Blocked | null {
  const text = raw.normalize('NFKC');
  const runs = digitRuns(text);
  const bankWords = BANK_CONTEXT.test(text);
  const phoneLike = (d: string) => /^0\d{9,10}$/.test(d);
  if (
    runs.some(
      (d) =>
        ((d.length === 7 || d.length === 8) && !phoneLike(d)) ||
        (bankWords && d.length >= 6 && !phoneLike(d)) ||
        (d.length >= 13 && d.length <= 14),
    )
  ) {
    return { error: 'SUPPORT_BLOCKED_ACCOUNT' };
  }
  for (const sentence of text.split(/[。.!?！？\n]+/)) {
    if (PASSWORD.test(sentence) && !NEGATION.test(sentence)) return { error: 'SUPPORT_BLOCKED_PASSWORD' };
  }
  for (const match of text.matchAll(LINK)) {
    const host = match[1];
    if (host && !hostAllowed(host)) return { error: 'SUPPORT_BLOCKED_LINK', params: { host } };
  }
  return null;
}
