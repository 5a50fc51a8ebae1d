import { LOCALES } from '@kabuto/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import { useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { antdLocaleOf } from '@/shared/i18n/antd-locale';
import { i18n } from '@/shared/i18n/i18n';

/**
 * The language shown: i18next's, which changes once the new language's catalogues (antd-mobile's texts
 * among them, locales/load.ts) have arrived, so antd-mobile never waits for its texts.
 */
function subscribeLanguage(listener: () => void): () => void {
  i18n.on('languageChanged', listener);
  return () => {
    i18n.off('languageChanged', listener);
  };
}

export function Providers({ children }: { children: ReactNode }) {
  const shown = useSyncExternalStore(subscribeLanguage, () => i18n.language);
  const locale = LOCALES.find((l) => l === shown);
  const antdLocale = locale === undefined ? undefined : antdLocaleOf(locale);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider {...(antdLocale === undefined ? {} : { locale: antdLocale })}>
          {children}
        </ConfigProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
