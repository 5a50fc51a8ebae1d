import { LOCALES } from '@kabuto/contract';
import { Select } from 'antd';
import { LOCALE_NAMES } from '@/locales/names';
import { useLocale } from './locale';
import { isLocale, sessionStore } from './session';

/** The console's language, each language named in itself. */
export function LanguageSwitcher() {
  const { locale, t } = useLocale();
  return (
    <Select
      aria-label={t('common.language')}
      value={locale}
      style={{ width: 130 }}
      options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
      onChange={(value: string) => {
        if (isLocale(value)) sessionStore.setLocale(value);
      }}
    />
  );
}
