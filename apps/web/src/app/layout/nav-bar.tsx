import { NavBar } from 'antd-mobile';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateBack, switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS } from '@/shared/navigation/routes';

function hasHistory(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && typeof (state as { idx?: unknown }).idx === 'number'
    ? (state as { idx: number }).idx > 0
    : false;
}

/** The custom navigation bar (3.13rem) on every page: title, and a back arrow on non-tab pages. */
export function AppNavBar({ title, showBack }: { title: string; showBack: boolean }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    // antd-mobile marks the left area role="button" even when it holds our own button: drop that role.
    ref.current?.querySelector('.adm-nav-bar-left')?.removeAttribute('role');
  });
  const back = showBack ? (
    <button
      type="button"
      className="nav-back"
      aria-label={t('common.back')}
      onClick={() => {
        if (hasHistory()) navigateBack();
        else switchTab(TAB_PATHS.home);
      }}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M15 4 7 12l8 8" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
    </button>
  ) : null;
  return (
    <header ref={ref} className="app-nav-bar">
      <NavBar back={null} left={back} style={{ '--height': '3.13rem' }}>
        <h1 className="app-nav-bar__title">{title}</h1>
      </NavBar>
    </header>
  );
}
