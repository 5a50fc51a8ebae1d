import type { Locale } from '@kabuto/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import esES from 'antd-mobile/es/locales/es-ES';
import frFR from 'antd-mobile/es/locales/fr-FR';
import jaJP from 'antd-mobile/es/locales/ja-JP';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { i18n } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/use-locale';

const ANTD_LOCALES: Record<Locale, typeof enUS> = {
  ja: jaJP,
  'zh-Hans': zhCN,
  'zh-Hant': zhTW,
  en: enUS,
  es: esES,
  fr: frFR,
};

export function Providers({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider locale={ANTD_LOCALES[locale]}>{children}</ConfigProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
