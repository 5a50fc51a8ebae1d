import type { Locale as AntdLocale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import frFR from 'antd/es/locale/fr_FR';
import jaJP from 'antd/es/locale/ja_JP';
import zhCN from 'antd/es/locale/zh_CN';
import zhTW from 'antd/es/locale/zh_TW';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import type { Locale } from '@kabuto/contract';
import { useTranslation } from 'react-i18next';
import { useSession } from './session';

/** antd's own texts (pagination, date pickers, empty tables, ...) and dayjs' in the console's language. */
export const ANTD_LOCALES: Record<Locale, AntdLocale> = {
  ja: jaJP,
  'zh-Hans': zhCN,
  'zh-Hant': zhTW,
  en: enUS,
  es: esES,
  fr: frFR,
};

const DAYJS_LOCALES: Record<Locale, string> = {
  ja: 'ja',
  'zh-Hans': 'zh-cn',
  'zh-Hant': 'zh-tw',
  en: 'en',
  es: 'es',
  fr: 'fr',
};

export function applyDayjsLocale(locale: Locale): void {
  dayjs.locale(DAYJS_LOCALES[locale]);
}

/** The current locale and the UI translation function. */
export function useLocale() {
  const { locale } = useSession();
  const { t } = useTranslation();
  return { locale, t };
}
