import { Tag } from 'antd';
import type { en } from '@/locales/en';
import { useLocale } from './locale';

type Status = keyof typeof en.status;

const COLORS: Record<Status, string> = {
  pending: 'gold',
  awaiting_second_approval: 'orange',
  approved: 'green',
  passed: 'green',
  rejected: 'red',
  replaced: 'default',
  unverified: 'default',
  active: 'green',
  inactive: 'default',
  locked: 'red',
};

function isStatus(status: string): status is Status {
  return Object.hasOwn(COLORS, status);
}

/** A review or account status as a coloured tag in the console's language (an unknown one as it came). */
export function StatusTag({ status }: { status: string }) {
  const { t } = useLocale();
  if (!isStatus(status)) return <Tag>{status}</Tag>;
  return <Tag color={COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
