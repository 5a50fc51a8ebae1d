/**
 * The form in which two renderings of a person's name compare equal: NFKC (full-width letters and
 * half-width kana folded), upper case, katakana as hiragana, without spaces (ASCII or ideographic) and the
 * separators names are written with (・ ･ . , -). So 山田 太郎 = 山田太郎, ヤマダ タロウ = ﾔﾏﾀﾞﾀﾛｳ = やまだたろう,
 * and YAMADA Taro = yamada taro. Used to check that a bank account is in the verified user's own name.
 */
export function normalizePersonName(name: string): string {
  const folded = name.normalize('NFKC').toUpperCase();
  let out = '';
  for (const ch of folded) {
    const c = ch.codePointAt(0) ?? 0;
    out += (c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out.replace(/[\s\u3000・.,\-‐－]/gu, '');
}

export function samePersonName(a: string, b: string): boolean {
  const x = normalizePersonName(a);
  return x !== '' && x === normalizePersonName(b);
}

/** All but the last `keep` characters replaced by •. */
export function maskTail(value: string, keep: number): string {
  if (value.length <= keep) return value;
  return '•'.repeat(value.length - keep) + value.slice(-keep);
}
