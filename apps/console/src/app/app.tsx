import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { ANTD_LOCALES } from '@/shared/locale';
import { NotifierBridge } from '@/shared/notifier';
import { queryClient } from '@/shared/query-client';
import { useSession } from '@/shared/session';
import { router } from './router';

export function App() {
  const { locale } = useSession();
  useEffect(() => {
    // Answers already fetched carry texts (msg, labels) in the previous language.
    void queryClient.invalidateQueries();
  }, [locale]);
  return (
    <ConfigProvider locale={ANTD_LOCALES[locale]} theme={{ token: { colorPrimary: '#b4232a' } }}>
      <AntdApp>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
