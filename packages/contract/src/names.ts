/**
 * Names as people and banks write them. `foldName` is the one folding both comparisons below share:
 * NFKC (full-width letters and half-width kana folded, ﾀﾞ composed to ダ), the spacing voiced marks
 * (゛ ゜) composed as well, upper case, and every dash written after a kana read as the long vowel mark ー
 * (so ﾀﾛ- and タロ－ and タロー are one rendering).
 */
const DASHES = /[-‐‑‒–—―−－ｰ]/u;
const KANA = /[\u3041-\u3096\u30a1-\u30fa\u30fc]/u;

function foldName(name: string): string {
  const composed = name
    .replace(/[\u309b\uff9e]/gu, '\u3099')
    .replace(/[\u309c\uff9f]/gu, '\u309a')
    .normalize('NFKC')
    .toUpperCase()
    // upper case can decompose (ῒ → Ϊ̀): composed again, so that folding twice changes nothing
    .normalize('NFC');
  let out = '';
  let previous = '';
  for (const ch of composed) {
    const next = DASHES.test(ch) && KANA.test(previous) ? 'ー' : ch;
    out += next;
    if (!/\s/u.test(ch)) previous = next;
  }
  return out;
}

/**
 * The form in which two renderings of a person's name compare equal: `foldName`, katakana as hiragana,
 * without spaces (ASCII or ideographic) and the separators names are written with (・ ･ . , -). So
 * 山田 太郎 = 山田太郎, ヤマダ タロウ = ﾔﾏﾀﾞﾀﾛｳ = やまだたろう, and YAMADA Taro = yamada taro. Used to check that a
 * bank account is in the verified user's own name when the application gave no reading.
 */
export function normalizePersonName(name: string): string {
  let out = '';
  for (const ch of foldName(name)) {
    const c = ch.codePointAt(0) ?? 0;
    out += (c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out.replace(/[\s\u3000・.,\-‐－]/gu, '');
}

export function samePersonName(a: string, b: string): boolean {
  const x = normalizePersonName(a);
  return x !== '' && x === normalizePersonName(b);
}

/** Small kana and the kana Zengin transfer data cannot carry, as Zengin writes them. */
const ZENGIN_KANA: Readonly<Record<string, string>> = {
  ァ: 'ア',
  ィ: 'イ',
  ゥ: 'ウ',
  ェ: 'エ',
  ォ: 'オ',
  ッ: 'ツ',
  ャ: 'ヤ',
  ュ: 'ユ',
  ョ: 'ヨ',
  ヮ: 'ワ',
  ヵ: 'カ',
  ヶ: 'ケ',
  ヰ: 'イ',
  ヱ: 'エ',
};

/**
 * An account holder's name in the Zengin form, in full-width katakana: `foldName`, hiragana as katakana,
 * small kana as large (Zengin data has no small kana: ｷｯﾄ is キツト), ヰ ヱ as イ エ, the long vowel as ー, ヴ
 * kept (ｳﾞ), spaces of any width and number as one space, trimmed. `ﾔﾏﾀﾞ  ﾀﾛ-` and `やまだ\u3000たろー` are both
 * ヤマダ タロー. Idempotent.
 */
export function zenginKana(name: string): string {
  let out = '';
  for (const ch of foldName(name)) {
    const c = ch.codePointAt(0) ?? 0;
    const kata = c >= 0x3041 && c <= 0x3096 ? String.fromCodePoint(c + 0x60) : ch;
    out += ZENGIN_KANA[kata] ?? kata;
  }
  return out.replace(/[\s\u3000]+/gu, ' ').trim();
}

/** Whether a name is written in kana only (with spaces, long vowel marks and the name separators). */
export function isKanaName(name: string): boolean {
  const z = zenginKana(name);
  return z !== '' && /^[\u30a0-\u30ff ・]+$/u.test(z);
}

/**
 * Whether a bank account's holder name is the customer's: both in the Zengin form, spaces and the middle
 * dot ignored (the bank's data and the application may put the space in different places, or none).
 */
export function sameAccountHolder(reading: string, holder: string): boolean {
  const key = (s: string) => zenginKana(s).replace(/[ ・]/gu, '');
  const a = key(reading);
  return a !== '' && a === key(holder);
}

/** All but the last `keep` characters replaced by •. */
export function maskTail(value: string, keep: number): string {
  if (value.length <= keep) return value;
  return '•'.repeat(value.length - keep) + value.slice(-keep);
}
