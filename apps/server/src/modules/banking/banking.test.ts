import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifications } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { postStepped } from '../../test/step-up.js';
import { bankDisplayName, branchDisplayName, searchBanks, searchBranches, yuchoToZengin } from './zengin.js';

/**
 * Zengin codes, the holder's name against the reading given at account opening, ゆうちょ銀行's 記号・番号, and
 * the firm's deposit account in the reader's language (ADR 0023). Fixed clock (TEST_NOW).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const get = (url: string, headers: Headers = {}, lang = 'en') =>
  t.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}lang=${lang}`, headers });

/** Test setup: the reading of the name that account opening records (full-width katakana). */
async function setReading(userId: number, kana: string | null) {
  await t.database.db
    .update(identityVerifications)
    .set({ fullNameKana: kana })
    .where(eq(identityVerifications.userId, userId));
}

const codes = (items: { code: string }[]) => items.map((i) => i.code);

describe('Zengin search', () => {
  it('finds a bank by code, name, kana, hiragana or romaji: exact code first, then prefix, then contains', () => {
    expect(codes(searchBanks('0009'))[0]).toBe('0009');
    expect(searchBanks('0009')[0]).toMatchObject({ name: '三井住友銀行', kana: 'ミツイスミトモ' });
    expect(codes(searchBanks('三井住友銀行'))).toEqual(['0009', '0294']);
    expect(codes(searchBanks('みずほ')).slice(0, 2)).toEqual(['0001', '0289']);
    expect(codes(searchBanks('ﾐｽﾞﾎ')).slice(0, 2)).toEqual(['0001', '0289']);
    expect(codes(searchBanks('mitsuisumitomo'))).toEqual(['0009', '0294']);
    expect(codes(searchBanks('ゆうちょ'))).toEqual(['9900']);
    expect(codes(searchBanks('paypay'))).toEqual(['0033']);
    // contains ranks after prefix: すみとも is inside 三井住友
    expect(codes(searchBanks('スミトモ'))).toContain('0009');
    expect(searchBanks('')).toHaveLength(30);
    expect(searchBanks('信金')).toHaveLength(30);
    expect(searchBanks('存在しない銀行名')).toEqual([]);
  });

  it('finds a branch within its bank', () => {
    expect(searchBranches('0009', '本店')?.[0]).toMatchObject({ code: '200', name: '本店営業部' });
    expect(searchBranches('0001', 'うえの')?.[0]).toMatchObject({ code: '107', name: '上野支店' });
    expect(searchBranches('0009', '221')?.[0]).toMatchObject({ code: '221', name: '新宿支店' });
    expect(searchBranches('9900', '〇一八')?.[0]).toMatchObject({ code: '018', name: '〇一八店' });
    expect(searchBranches('9999', '')).toBeUndefined();
  });

  it('names banks and branches as a passbook does', () => {
    expect(bankDisplayName('0005', '三菱ＵＦＪ')).toBe('三菱UFJ銀行');
    expect(bankDisplayName('9900', 'ゆうちょ')).toBe('ゆうちょ銀行');
    expect(bankDisplayName('1225', '大田原信金')).toBe('大田原信用金庫');
    expect(bankDisplayName('2226', '東信組')).toBe('東信用組合');
    expect(bankDisplayName('3202', 'るもい農協')).toBe('るもい農協');
    expect(branchDisplayName('0009', '新宿')).toBe('新宿支店');
    expect(branchDisplayName('0009', '本店営業部')).toBe('本店営業部');
    expect(branchDisplayName('9900', '〇一八')).toBe('〇一八店');
  });
});

describe('ゆうちょ銀行: 記号・番号 in the Zengin form (JP Bank’s published rule)', () => {
  it.each([
    // 記号 1xyz0 → 店番 xy8, 番号 without its last digit (always 1), left-padded to 7; 普通
    ['10180', '12345671', false, { branch_code: '018', account_number: '1234567', account_type: 'ordinary' }],
    ['17300', '19927651', false, { branch_code: '738', account_number: '1992765', account_type: 'ordinary' }],
    ['14010', '1234561', false, { branch_code: '408', account_number: '0123456', account_type: 'ordinary' }],
    // 通常貯蓄貯金: the same branch and number, 貯蓄
    ['10180', '12345671', true, { branch_code: '018', account_number: '1234567', account_type: 'savings' }],
    // 振替口座: 記号 0xyzw → 店番 xy9, 番号 left-padded to 7; 当座
    ['00120', '123456', false, { branch_code: '019', account_number: '0123456', account_type: 'checking' }],
    ['01750', '45', false, { branch_code: '179', account_number: '0000045', account_type: 'checking' }],
  ])('%s-%s → %o', (symbol, number, savings, expected) => {
    expect(yuchoToZengin(symbol, number, savings)).toEqual(expected);
  });

  it.each([
    ['20180', '12345671', 'validation.yuchoSymbol'],
    ['1018', '12345671', 'validation.yuchoSymbol'],
    ['10180', '12345678', 'validation.yuchoNumber'],
    ['10180', '123456789', 'validation.yuchoNumber'],
    ['00120', '1234567', 'validation.yuchoNumber'],
  ])('refuses %s-%s', (symbol, number, error) => {
    expect(yuchoToZengin(symbol, number)).toEqual({ error });
  });
});

describe('GET /api/banks', () => {
  it('needs a session', async () => {
    expect((await get('/api/banks?q=mizuho')).statusCode).toBe(401);
    expect((await get('/api/banks/0001/branches?q=ueno')).statusCode).toBe(401);
    expect((await get('/api/banks', { token: 'not-a-session' })).statusCode).toBe(401);
  });

  it('answers code, name and kana, at most 30', async () => {
    const u = await registerAndLogin(t);
    const res = await get('/api/banks?q=みずほ', { token: u.token });
    const items = body<{ items: Record<string, string>[] }>(res).data.items;
    expect(items[0]).toEqual({ code: '0001', name: 'みずほ銀行', kana: 'ミズホ' });
    expect(body<{ items: unknown[] }>(await get('/api/banks', { token: u.token })).data.items).toHaveLength(
      30,
    );
    const branches = body<{ items: Record<string, string>[] }>(
      await get('/api/banks/0001/branches?q=ueno', { token: u.token }),
    ).data.items;
    expect(branches[0]).toEqual({ code: '107', name: '上野支店', kana: 'ウエノ' });
    const unknown = await get('/api/banks/9999/branches', { token: u.token });
    expect(body(unknown)).toMatchObject({ code: 1325 });
    const bad = await get('/api/banks/12/branches', { token: u.token });
    expect(body(bad)).toMatchObject({ code: 400, msg: 'A bank code has 4 digits' });
  });
});

describe('registering a bank account', () => {
  const account = (password: string, over: object = {}) => ({
    holder_name: 'ﾔﾏﾀﾞ ﾀﾛｳ',
    bank_code: '0009',
    branch_code: '221',
    account_type: 'ordinary',
    account_number: '7654321',
    login_password: password,
    ...over,
  });

  it('matches the holder with the reading in any width, small kana or long vowel, and stores the Zengin form', async () => {
    const u = await registerAndLogin(t);
    await setReading(u.userId, 'ヤマダ タロウ');
    const wrong = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { holder_name: 'ヤマダ ジロウ' }),
    );
    expect(body(wrong)).toMatchObject({
      code: 1321,
      msg: 'The account holder must be you: the name must match your verified name (ヤマダ タロウ)',
    });
    const kanji = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { holder_name: '山田 太郎' }),
    );
    expect(body(kanji).code).toBe(1321);
    const ok = await postStepped(t, u, '/api/bank-accounts', account(u.password));
    expect(body(ok)).toMatchObject({
      code: 1,
      data: {
        holder_name: 'ヤマダ タロウ',
        bank_code: '0009',
        bank_name: '三井住友銀行',
        branch_name: '新宿支店',
        branch_number: '221',
        account_type: 'ordinary',
        account_number: '7654321',
        status: 'pending',
      },
    });

    const v = await registerAndLogin(t);
    await setReading(v.userId, 'キッカワ タロー');
    const half = await postStepped(
      t,
      v,
      '/api/bank-accounts',
      account(v.password, { holder_name: 'ｷﾂｶﾜ  ﾀﾛ-' }),
    );
    expect(body(half)).toMatchObject({ code: 1, data: { holder_name: 'キツカワ タロー' } });
  });

  it('without a reading (verified before account opening asked for it) compares with the verified name', async () => {
    const u = await registerAndLogin(t);
    await setReading(u.userId, null);
    expect(body(await postStepped(t, u, '/api/bank-accounts', account(u.password))).code).toBe(1321);
    const ok = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { holder_name: '山田　太郎' }),
    );
    expect(body(ok)).toMatchObject({ code: 1, data: { holder_name: '山田　太郎' } });
  });

  it('takes the bank and branch names from the Zengin data, never from the client', async () => {
    const u = await registerAndLogin(t);
    await setReading(u.userId, 'ヤマダ タロウ');
    const sneaky = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { bank_name: 'Totally Real Bank', branch_name: 'x' }),
    );
    // names the client sends are not the request's fields: refused, naming the field (ADR 0030) ...
    expect(sneaky.statusCode).toBe(400);
    expect(body(sneaky)).toMatchObject({
      code: 400,
      data: { issues: [{ field: 'bank_name', rule: 'unrecognized_keys' }] },
    });
    // ... and the data's names are the ones stored
    const named = await postStepped(t, u, '/api/bank-accounts', account(u.password));
    expect(body(named)).toMatchObject({
      code: 1,
      data: { bank_name: '三井住友銀行', branch_name: '新宿支店' },
    });
    const unknownBank = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { bank_code: '0002' }),
    );
    expect(body(unknownBank)).toMatchObject({
      code: 1325,
      msg: 'No bank has the code 0002: please pick your bank from the list',
    });
    const unknownBranch = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { branch_code: '999' }),
    );
    expect(body(unknownBranch)).toMatchObject({ code: 1326 });
    const noBranch = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { branch_code: undefined }),
    );
    expect(body<{ issues: { field: string }[] }>(noBranch).data.issues.map((i) => i.field)).toEqual([
      'branch_code',
    ]);
    const badType = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { account_type: 'current' }),
    );
    expect(body(badType)).toMatchObject({ code: 400, msg: 'Choose ordinary, checking or savings' });
  });

  it('converts ゆうちょ銀行’s 記号・番号: 総合口座 to 普通, 振替口座 to 当座', async () => {
    const u = await registerAndLogin(t);
    await setReading(u.userId, 'ヤマダ タロウ');
    const sogo = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, {
        bank_code: '9900',
        branch_code: undefined,
        account_number: undefined,
        yucho: { symbol: '10180', number: '12345671' },
      }),
    );
    expect(body(sogo)).toMatchObject({
      code: 1,
      data: {
        bank_name: 'ゆうちょ銀行',
        branch_name: '〇一八店',
        branch_number: '018',
        account_number: '1234567',
        account_type: 'ordinary',
      },
    });
    const furikae = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, {
        bank_code: '9900',
        branch_code: undefined,
        account_number: undefined,
        yucho: { symbol: '00120', number: '123456' },
      }),
    );
    expect(body(furikae)).toMatchObject({
      code: 1,
      data: {
        branch_name: '〇一九店',
        branch_number: '019',
        account_number: '0123456',
        account_type: 'checking',
      },
    });
    const notYucho = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { yucho: { symbol: '10180', number: '12345671' } }),
    );
    expect(body(notYucho)).toMatchObject({ code: 400, msg: 'A symbol and number are for ゆうちょ銀行 only' });
    const badNumber = await postStepped(
      t,
      u,
      '/api/bank-accounts',
      account(u.password, { bank_code: '9900', yucho: { symbol: '10180', number: '12345678' } }),
    );
    expect(body(badNumber)).toMatchObject({ code: 1327 });
  });
});

describe('GET /api/deposits/account', () => {
  it('shows the firm’s account in the reader’s language, with the customer’s own virtual account number', async () => {
    expect((await get('/api/deposits/account')).statusCode).toBe(401);
    const u = await registerAndLogin(t);
    const read = async (lang: string) =>
      body<Record<string, string | null>>(await get('/api/deposits/account', { token: u.token }, lang)).data;
    const number = `9${String(u.userId).padStart(6, '0')}`;
    expect(await read('jp')).toMatchObject({
      bank_code: '0009',
      bank_name: '三井住友銀行',
      bank_kana: 'ミツイスミトモ',
      branch_name: '本店営業部',
      branch_kana: 'ホンテン',
      branch_number: '200',
      account_type: 'ordinary',
      account_number: number,
      holder_kana: 'カ）カブトシヨウケン',
    });
    expect(await read('en')).toMatchObject({
      bank_name: 'Mitsuisumitomo Bank',
      branch_name: 'Honten Branch',
    });
    expect(await read('fr')).toMatchObject({
      bank_name: 'Banque Mitsuisumitomo',
      branch_name: 'Agence Honten',
    });
    expect(await read('sp')).toMatchObject({ bank_name: 'Banco Mitsuisumitomo' });
    expect(await read('cn')).toMatchObject({ bank_name: '三井住友银行', branch_name: '本店営業部' });
  });
});
