import { createRequire } from 'node:module';
import { zenginKana } from '@kabuto/contract';

/**
 * The Zengin bank and branch codes (the `zengin-code` package: 全銀協's 金融機関コード and 店番, with names in
 * kanji, katakana, hiragana and romaji), loaded once, on first use (the data is 5 MB of JavaScript), and
 * indexed for search. Names are shown as customers read them on their passbook: 三井住友 is 三井住友銀行,
 * 上野 is 上野支店, ゆうちょ's 〇一八 is 〇一八店.
 */
interface RawEntry {
  code: string;
  name: string;
  kana: string;
  hira: string;
  roma: string;
}
interface RawBank extends RawEntry {
  branches: Record<string, RawEntry>;
}

export interface ZenginEntry {
  code: string;
  /** the name as written in Japanese, with its suffix (銀行, 支店...) */
  name: string;
  /** the Zengin reading, in full-width katakana */
  kana: string;
  /** romaji, capitalised (Mitsuisumitomo) */
  roma: string;
  /** what a query is compared with: the name, kana and romaji folded (see `fold`) */
  keys: string[];
}
export interface ZenginBank extends ZenginEntry {
  branches: Map<string, ZenginEntry>;
  /** the branches in code order, for search */
  branchList: ZenginEntry[];
}

export const YUCHO_BANK_CODE = '9900';
/** At most this many results per search. */
export const SEARCH_LIMIT = 30;

/** Folds a name or a query for comparison: Zengin kana (width, hiragana, small kana), no spaces or dots. */
export function fold(s: string): string {
  return zenginKana(s).replace(/[ ・.、,()（）]/gu, '');
}

/** Query suffixes a customer may type that the data leaves out (三井住友銀行, 上野支店). */
const BANK_SUFFIXES = ['銀行', 'ギンコウ', 'BANK', '信用金庫', 'シンヨウキンコ', '信用組合'];
const BRANCH_SUFFIXES = ['支店', 'シテン', '出張所', '店', 'BRANCH'];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The bank's name as customers read it: 銀行 added to banks' short names, 信金 and 信組 spelled out. */
export function bankDisplayName(code: string, name: string): string {
  const n = name.normalize('NFKC');
  if (n.endsWith('信金')) return `${n.slice(0, -2)}信用金庫`;
  if (n.endsWith('信組')) return `${n.slice(0, -2)}信用組合`;
  const isBank = Number(code) < 1000 || code === YUCHO_BANK_CODE;
  if (!isBank || /(銀行|バンク|エヌ・エイ|BANK)$/u.test(n)) return n;
  return `${n}銀行`;
}

/** The branch's name as customers read it: 支店 added unless the name already says what it is; ゆうちょ's 店. */
export function branchDisplayName(bankCode: string, name: string): string {
  const n = name.normalize('NFKC');
  if (bankCode === YUCHO_BANK_CODE) return `${n}店`;
  if (/(店|部|所|センター|支社|営業室|出張)$/u.test(n)) return n;
  return `${n}支店`;
}

function entry(raw: RawEntry, name: string): ZenginEntry {
  return {
    code: raw.code,
    name,
    kana: zenginKana(raw.kana),
    roma: capitalise(raw.roma),
    keys: [fold(raw.name), fold(name), fold(raw.kana), fold(raw.roma)],
  };
}

let banks: Map<string, ZenginBank> | undefined;
let bankList: ZenginBank[] = [];

/** The data, loaded and indexed on first use. */
export function zengin(): Map<string, ZenginBank> {
  if (banks) return banks;
  const require = createRequire(import.meta.url);
  const raw = require('zengin-code') as Record<string, RawBank>;
  const out = new Map<string, ZenginBank>();
  for (const code of Object.keys(raw).sort()) {
    const b = raw[code];
    if (!b) continue;
    const branchList = Object.keys(b.branches)
      .sort()
      .flatMap((c) => {
        const br = b.branches[c];
        return br ? [entry(br, branchDisplayName(code, br.name))] : [];
      });
    out.set(code, {
      ...entry(b, bankDisplayName(code, b.name)),
      branches: new Map(branchList.map((br) => [br.code, br])),
      branchList,
    });
  }
  banks = out;
  bankList = [...out.values()];
  return out;
}

export function findBank(code: string): ZenginBank | undefined {
  return zengin().get(code);
}

export function findBranch(bankCode: string, branchCode: string): ZenginEntry | undefined {
  return findBank(bankCode)?.branches.get(branchCode);
}

function stripSuffix(q: string, suffixes: string[]): string {
  for (const s of suffixes) {
    const f = fold(s);
    if (q.length > f.length && q.endsWith(f)) return q.slice(0, -f.length);
  }
  return q;
}

/**
 * Ranked search: an exact code first, then codes and names (kanji, kana, hiragana, romaji) that start with
 * the query, then those that contain it; in code order within each rank; at most SEARCH_LIMIT. An empty
 * query answers the first entries in code order (the city banks come first).
 */
export function search<T extends ZenginEntry>(entries: readonly T[], query: string, suffixes: string[]): T[] {
  const raw = query.trim();
  if (raw === '') return entries.slice(0, SEARCH_LIMIT);
  const nfkc = raw.normalize('NFKC');
  const digits = /^\d+$/u.test(nfkc) ? nfkc : null;
  const q = fold(raw);
  // 三井住友ぎんこう finds 三井住友 too, one rank below what the whole query finds.
  const bare = stripSuffix(q, suffixes);
  const ranked: [number, T][] = [];
  for (const e of entries) {
    let rank = 9;
    if (digits !== null) {
      if (e.code === digits) rank = 0;
      else if (e.code.startsWith(digits)) rank = 1;
    }
    for (const k of e.keys) rank = Math.min(rank, textRank(k, q), textRank(k, bare) + 0.5);
    if (rank < 9) ranked.push([rank, e]);
  }
  ranked.sort((a, b) => a[0] - b[0] || (a[1].code < b[1].code ? -1 : 1));
  return ranked.slice(0, SEARCH_LIMIT).map(([, e]) => e);
}

function textRank(key: string, q: string): number {
  if (q === '') return 9;
  if (key === q) return 1;
  if (key.startsWith(q)) return 2;
  return key.includes(q) ? 3 : 9;
}

export const searchBanks = (q: string): ZenginBank[] => {
  zengin();
  return search(bankList, q, BANK_SUFFIXES);
};

/** undefined: no such bank. */
export const searchBranches = (bankCode: string, q: string): ZenginEntry[] | undefined => {
  const bank = findBank(bankCode);
  return bank && search(bank.branchList, q, BRANCH_SUFFIXES);
};

/** ゆうちょ銀行's 記号・番号 in the Zengin form (JP Bank's published rule, see ADR 0023). */
export interface YuchoZengin {
  branch_code: string;
  account_number: string;
  account_type: 'ordinary' | 'savings' | 'checking';
}

/**
 * JP Bank's rule ("記号・番号から振込用の店名・預金種目・口座番号への変換"):
 * - 記号 starting with 1 (総合口座, 通常貯金, 通常貯蓄貯金): 店番 = the 2nd and 3rd digits of 記号 followed by 8;
 *   口座番号 = 番号 without its last digit (always 1), left-padded with zeros to 7 digits; 普通預金 (貯蓄預金 for
 *   a 通常貯蓄貯金).
 * - 記号 starting with 0 (振替口座): 店番 = the 2nd and 3rd digits followed by 9; 口座番号 = 番号 (at most 6
 *   digits; the single digit printed between 記号 and 番号 is not used) left-padded to 7; 当座預金.
 * Answers a catalogue key (`validation.*`) when the pair cannot be an account.
 */
export function yuchoToZengin(
  symbol: string,
  number: string,
  savings = false,
): YuchoZengin | { error: 'validation.yuchoSymbol' | 'validation.yuchoNumber' } {
  if (!/^[01]\d{4}$/u.test(symbol)) return { error: 'validation.yuchoSymbol' };
  const shop = symbol.slice(1, 3);
  if (symbol.startsWith('1')) {
    if (!/^\d{2,8}$/u.test(number) || !number.endsWith('1')) return { error: 'validation.yuchoNumber' };
    return {
      branch_code: `${shop}8`,
      account_number: number.slice(0, -1).padStart(7, '0'),
      account_type: savings ? 'savings' : 'ordinary',
    };
  }
  if (!/^\d{1,6}$/u.test(number)) return { error: 'validation.yuchoNumber' };
  return { branch_code: `${shop}9`, account_number: number.padStart(7, '0'), account_type: 'checking' };
}
