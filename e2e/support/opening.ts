import { expect, type Page } from '@playwright/test';
import { pngBytes } from '../../apps/server/src/lib/images.js';

/**
 * The account application (口座開設) through its seven real steps, in English or Japanese labels: answers
 * that pass every default suitability rule, the published sample My Number, and two photos. Ends on the
 * review step, before submitting (or on the documents step, before its answers, with stopAtDocuments).
 */
const LABELS = {
  en: {
    fullName: 'Name (kanji)',
    kana: 'Reading (katakana)',
    birthDate: 'Date of birth',
    postalCode: 'Postal code',
    prefecture: 'Prefecture',
    city: 'City, ward, town or village',
    addressLine: 'Street and number',
    occupation: 'Occupation',
    employerType: 'Employer',
    annualIncome: 'Annual income',
    financialAssets: 'Financial assets',
    products: ['Stocks', 'Margin trading', 'Investment trusts', 'Bonds', 'FX and derivatives'],
    purpose: 'Purpose of investment',
    fundSource: 'Main source of funds',
    pep: /foreign politically exposed person/,
    taxResidence: 'Where are you resident for tax purposes?',
    myNumber: 'My Number (12 digits)',
    documentType: 'Identity document',
    front: 'Front of the document',
    back: 'Back of the document',
    specificAccount: '特定口座 (specific account)',
    openNisa: 'Open a NISA account (growth quota)',
    yes: 'Yes',
    no: 'No',
    next: 'Next',
  },
  ja: {
    fullName: 'お名前（漢字）',
    kana: 'フリガナ',
    birthDate: '生年月日',
    postalCode: '郵便番号',
    prefecture: '都道府県',
    city: '市区町村',
    addressLine: '町名・番地',
    occupation: 'ご職業',
    employerType: '勤務先',
    annualIncome: '年収',
    financialAssets: '金融資産',
    products: ['株式（現物）', '信用取引', '投資信託', '債券', 'FX・デリバティブ'],
    purpose: '投資目的',
    fundSource: '主な資金源',
    pep: /外国PEPs/,
    taxResidence: '税務上の居住地国',
    myNumber: 'マイナンバー（12桁）',
    documentType: '本人確認書類',
    front: '書類の表面',
    back: '書類の裏面',
    specificAccount: '特定口座',
    openNisa: 'NISA口座（成長投資枠）を開設する',
    yes: 'はい',
    no: 'いいえ',
    next: '次へ',
  },
} as const;
export type OpeningLanguage = keyof typeof LABELS;

const png = (name: string) => ({ name, mimeType: 'image/png', buffer: pngBytes(8, 6) });

export async function fillApplication(
  page: Page,
  lang: OpeningLanguage,
  options: { fullName?: string; stopAtDocuments?: boolean } = {},
): Promise<void> {
  const fullName = options.fullName ?? '山田 太郎';
  const l = LABELS[lang];
  const form = page.locator('form.application-form');
  const next = async (step: string) => {
    await form.getByRole('button', { name: l.next, exact: true }).click();
    await expect(form).toHaveAttribute('data-step', step);
  };
  await form.getByLabel(l.fullName, { exact: true }).fill(fullName);
  await form.getByLabel(l.kana, { exact: true }).fill('ﾔﾏﾀﾞ ﾀﾛｳ');
  await form.getByLabel(l.birthDate, { exact: true }).fill('1985-04-01');
  await next('address');
  await form.getByLabel(l.postalCode, { exact: true }).fill('100-0005');
  await form.getByLabel(l.prefecture, { exact: true }).selectOption('13');
  await form.getByLabel(l.city, { exact: true }).fill('千代田区');
  await form.getByLabel(l.addressLine, { exact: true }).fill('丸の内1-1-1');
  await next('profile');
  await form.getByLabel(l.occupation, { exact: true }).selectOption('company_employee');
  await form.getByLabel(l.employerType, { exact: true }).selectOption('unlisted_company');
  await form.getByLabel(l.annualIncome, { exact: true }).selectOption('5m_10m');
  await form.getByLabel(l.financialAssets, { exact: true }).selectOption('3m_5m');
  const [stocks, margin, funds, bonds, fx] = l.products;
  await form.getByLabel(stocks, { exact: true }).selectOption('3_5');
  await form.getByLabel(margin, { exact: true }).selectOption('1_3');
  await form.getByLabel(funds, { exact: true }).selectOption('1_3');
  await form.getByLabel(bonds, { exact: true }).selectOption('none');
  await form.getByLabel(fx, { exact: true }).selectOption('none');
  await form.getByLabel(l.purpose, { exact: true }).selectOption('growth');
  await form.getByLabel(l.fundSource, { exact: true }).selectOption('salary');
  await next('declarations');
  await form.getByRole('group', { name: l.pep }).getByLabel(l.no, { exact: true }).check();
  await form.getByLabel(l.taxResidence, { exact: true }).selectOption('japan_only');
  await next('documents');
  if (options.stopAtDocuments === true) return;
  await form.getByLabel(l.myNumber, { exact: true }).fill('1234 5678 9018');
  await form.getByLabel(l.documentType, { exact: true }).selectOption('my_number_card');
  await form.getByLabel(l.front, { exact: true }).setInputFiles(png('front.png'));
  await form.getByLabel(l.back, { exact: true }).setInputFiles(png('back.png'));
  await expect(page.getByTestId('photo-identity_front')).toHaveAttribute('data-state', 'success');
  await expect(page.getByTestId('photo-identity_back')).toHaveAttribute('data-state', 'success');
  await next('tax');
  await form.getByLabel(l.specificAccount, { exact: true }).selectOption('withholding');
  await form.getByRole('group', { name: l.openNisa }).getByLabel(l.yes, { exact: true }).check();
  await next('review');
}
