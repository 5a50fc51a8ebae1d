import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp } from 'antd';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { NotifierBridge } from '@/shared/notifier';
import { queryClient } from '@/shared/query-client';
import { useSession } from '@/shared/session';
import { router } from './router';
import { ConsoleTheme } from './theme';

export function App() {
  const { locale } = useSession();
  useEffect(() => {
    // Answers already fetched carry texts (msg, labels) in the previous language.
    void queryClient.invalidateQueries();
  }, [locale]);
  return (
    <ConsoleTheme locale={locale}>
      <AntdApp>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConsoleTheme>
  );
}
