import { eq } from 'drizzle-orm';
import {
  DEFAULT_LOAN_SETTINGS,
  DEFAULT_OPENING_SETTINGS,
  DEFAULT_TAX_SETTINGS,
  DEFAULT_WITHDRAWAL_WINDOWS,
  SETTING_KEYS,
  ZSettings,
  ZTaxSettings,
  type SettingKey,
  type TOpeningSettings,
  type TSettings,
  type TTaxSettings,
} from '@kabuto/contract';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/types.js';
import { settings } from '../../db/schema.js';
import type { WithdrawalPolicy } from '../account/withdrawal-rules.js';

/**
 * Operator-published settings (withdrawal rules, deposit account and URL, customer-service channels). A
 * stored value replaces its whole part; parts never stored take their defaults from the configuration.
 */
export function defaultSettings(config: Config): TSettings {
  return {
    withdrawal: {
      min_yen: config.WITHDRAWAL_MIN_YEN,
      windows: DEFAULT_WITHDRAWAL_WINDOWS.map((w) => ({ start: w.start, end: w.end })),
      second_approval_over_yen: config.WITHDRAWAL_SECOND_APPROVAL_YEN,
    },
    deposit: {
      url: config.DEPOSIT_URL ?? null,
      // ADR 0023: a demo account at 三井住友銀行 本店営業部 (0009-200); operators publish the real one.
      bank_code: '0009',
      bank_name: '三井住友銀行',
      branch_name: '本店営業部',
      branch_number: '200',
      account_type: 'ordinary',
      holder: 'KABUTO SECURITIES (DEMO)',
      holder_kana: 'カ）カブトシヨウケン',
      number_prefix: '9',
    },
    customer_service: [],
    tax: { ...DEFAULT_TAX_SETTINGS },
    opening: { ...DEFAULT_OPENING_SETTINGS },
    loans: { ...DEFAULT_LOAN_SETTINGS },
    // the demo is no registered firm, and the about section says so until operators publish the real one
    firm: { name: 'Kabuto (demo)', registration: null, associations: [] },
  };
}

export async function loadSettings(db: Executor, config: Config): Promise<TSettings> {
  const rows = await db.select().from(settings);
  const merged: Record<string, unknown> = { ...defaultSettings(config) };
  // other rows (pending four-eyes proposals, ADR 0034) are not settings in force
  for (const row of rows) {
    if ((SETTING_KEYS as readonly string[]).includes(row.key))
      merged[row.key] = JSON.parse(row.value) as unknown;
  }
  // A value written by an older version that no longer parses falls back to the defaults, part by part.
  const parsed = ZSettings.safeParse(merged);
  if (parsed.success) return parsed.data;
  const defaults = defaultSettings(config);
  const out = { ...defaults } as Record<SettingKey, unknown>;
  for (const key of Object.keys(defaults) as SettingKey[]) {
    const part = ZSettings.shape[key].safeParse(merged[key]);
    if (part.success) out[key] = part.data;
  }
  return out as TSettings;
}

/** Stores one part; answers the part before and after (for the audit log). */
export async function storeSetting<K extends SettingKey>(
  db: Executor,
  config: Config,
  key: K,
  value: TSettings[K],
  operatorId: number,
  at: Date,
): Promise<{ before: TSettings[K]; after: TSettings[K] }> {
  const before = (await loadSettings(db, config))[key];
  const text = JSON.stringify(value);
  await db
    .insert(settings)
    .values({ key, value: text, updatedBy: operatorId, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value: text, updatedBy: operatorId, updatedAt: at } });
  return { before, after: value };
}

export async function settingUpdatedAt(db: Executor, key: SettingKey): Promise<Date | null> {
  const [row] = await db.select({ at: settings.updatedAt }).from(settings).where(eq(settings.key, key));
  return row?.at ?? null;
}

/** The withdrawal rules in force (minimum and hours), as the rules module takes them. */
export async function withdrawalPolicy(db: Executor, config: Config): Promise<WithdrawalPolicy> {
  const { withdrawal } = await loadSettings(db, config);
  return { minYen: withdrawal.min_yen, windows: withdrawal.windows };
}

/**
 * The tax settings in force (rates, NISA limits, the 制度信用 period: ADR 0021), read alone so that the order
 * path reads one row only when an order needs them; the defaults when none is stored or it no longer parses.
 */
export async function taxSettings(db: Executor): Promise<TTaxSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'tax'));
  if (!row) return DEFAULT_TAX_SETTINGS;
  const parsed = ZTaxSettings.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : DEFAULT_TAX_SETTINGS;
}

/** Account opening's minimum age and the suitability rules in force (ADR 0022). */
export async function openingSettings(db: Executor, config: Config): Promise<TOpeningSettings> {
  return (await loadSettings(db, config)).opening;
}
