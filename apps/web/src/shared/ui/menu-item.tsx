import { List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { Link } from '@/shared/navigation/router';
import { navigateTo } from '../navigation/nav';

/** A list row that is a real link (keyboard and screen-reader friendly), opened with navigateTo. */
export function MenuLink({ to, children, extra }: { to: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <List.Item arrowIcon extra={extra}>
      <Link
        className="menu-link"
        to={to}
        onClick={(event) => {
          event.preventDefault();
          navigateTo(to);
        }}
      >
        {children}
      </Link>
    </List.Item>
  );
}

/** A list row that is a button. */
export function MenuButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <List.Item arrowIcon>
      <button type="button" className="menu-link" onClick={onClick}>
        {children}
      </button>
    </List.Item>
  );
}
