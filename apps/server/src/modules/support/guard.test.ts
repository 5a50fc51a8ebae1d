import { describe, expect, it } from 'vitest';
import { checkStaffMessage } from './guard.js';

const error = (text: string) => checkStaffMessage(text)?.error ?? null;

describe('staff messages that follow the script of investment fraud are blocked (ADR 0029)', () => {
  it.each([
    '三井住友銀行 新宿支店 普通 1234567 にお振込みください',
    'こちらの口座へ: ７６５４３２１',
    'Please transfer to account 12345678 at Mizuho',
    '振込先 普通口座 123-4567',
    'ゆうちょ銀行 記号10120 番号12345671',
    'Deposit to 1234567 today for the IPO allocation',
    '请汇款到账户 6543210',
  ])('an account number: %s', (text) => {
    expect(error(text)).toBe('SUPPORT_BLOCKED_ACCOUNT');
  });

  it.each([
    'ご本人確認のためログインパスワードを教えてください',
    'Please send me your password so I can fix the order',
    'Tell us your PIN to unlock the account',
    '请提供您的密码',
    'Envoyez-nous votre mot de passe',
    'Indíquenos su contraseña',
  ])('a request for a password: %s', (text) => {
    expect(error(text)).toBe('SUPPORT_BLOCKED_PASSWORD');
  });

  it.each([
    'Join our group: https://line.me/R/ti/g/abcdef',
    '詳しくは http://kabuto-invest.example.net/vip をご覧ください',
    'see bit.ly/3xyz for the app',
    'https://kabuto.example.evil.example/login',
  ])('a link outside the allow-list: %s', (text) => {
    expect(error(text)).toBe('SUPPORT_BLOCKED_LINK');
  });

  it.each([
    'お問い合わせありがとうございます。ご注文は約定しております。',
    '当社がパスワードをお尋ねすることはありません。',
    'We will never ask for your password.',
    'Nous ne vous demanderons jamais votre mot de passe.',
    '詳細は https://kabuto.example/help/deposit をご覧ください',
    '金融庁の注意喚起: https://www.fsa.go.jp/ordinary/chuui/',
    'お電話は 0120-123-456 (平日 9:00-17:00) へどうぞ',
    '注文番号 A12 は取消済みです',
    'The order for 100 shares of 7203 was filled at 2,850 yen.',
  ])('an ordinary answer passes: %s', (text) => {
    expect(checkStaffMessage(text)).toBeNull();
  });

  it('names the refused host', () => {
    expect(checkStaffMessage('https://evil.example/x')).toEqual({
      error: 'SUPPORT_BLOCKED_LINK',
      params: { host: 'evil.example' },
    });
  });
});
