import type { Locale } from '@kabuto/contract';
import { usePrefersReducedMotion } from '@kabuto/client/reduced-motion';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { ANTD_LOCALES } from '@/shared/locale';

/**
 * antd's settings for the whole console: the operator's language, the house colour, and motion unless the
 * operator's system asks for less of it. Under `prefers-reduced-motion: reduce` a modal, confirmation or
 * drawer is in place at once, without its zoom or slide (WCAG 2.3.3).
 */
export function ConsoleTheme({ locale, children }: { locale: Locale; children: ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[locale]}
      theme={{ token: { colorPrimary: '#b4232a', motion: !reducedMotion } }}
    >
      {children}
    </ConfigProvider>
  );
}
