import { TabBar } from 'antd-mobile';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from '@/shared/messages/unread';
import { switchTab } from '@/shared/navigation/nav';
import { usePrefetch } from '@/shared/navigation/router';
import { TAB_PATHS } from '@/shared/navigation/routes';
import { TAB_ICONS } from './tab-icons';

const TABS = [
  { path: TAB_PATHS.home, key: 'home' },
  { path: TAB_PATHS.market, key: 'market' },
  { path: TAB_PATHS.trade, key: 'trade' },
  { path: TAB_PATHS.news, key: 'news' },
  { path: TAB_PATHS.user, key: 'user' },
] as const;

/** The path of the tab an event happened on (on its icon, title or badge), if any. */
function tabPathOf(event: { target: EventTarget }): string | undefined {
  return (event.target as HTMLElement).closest('[data-path]')?.getAttribute('data-path') ?? undefined;
}

/** The bottom tab bar: five tabs in the specification's order, 50 px high. */
export function AppTabBar({ activePath }: { activePath: string }) {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  const prefetch = usePrefetch();
  // the press starts the tab's page loading; the click that follows opens it
  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    const path = tabPathOf(event);
    if (path !== undefined) prefetch(path);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const path = tabPathOf(event);
    if (path !== undefined) {
      event.preventDefault();
      switchTab(path);
    }
  };
  return (
    <nav
      className="app-tab-bar"
      aria-label={t('tabs.label')}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    >
      <TabBar activeKey={activePath} onChange={(key) => switchTab(key)}>
        {TABS.map((tab) => (
          <TabBar.Item
            key={tab.path}
            icon={TAB_ICONS[tab.key]}
            title={t(`tabs.${tab.key}`)}
            badge={tab.key === 'user' && unread > 0 ? (unread > 99 ? '99+' : unread) : undefined}
            tabIndex={0}
            aria-label={
              tab.key === 'user' && unread > 0
                ? `${t(`tabs.${tab.key}`)} (${t('messages.unreadCount', { n: unread })})`
                : t(`tabs.${tab.key}`)
            }
            aria-current={tab.path === activePath ? 'page' : undefined}
            data-path={tab.path}
          />
        ))}
      </TabBar>
    </nav>
  );
}
