import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

type Status = 'pending' | 'approved' | 'rejected' | 'replaced';

const COLORS: Record<Status, 'warning' | 'success' | 'danger' | 'default'> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
  replaced: 'default',
};

/** A record's review state: awaiting review, approved, audit failed (or replaced, for bank accounts). */
export function ReviewStatus({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} fill="outline" data-testid="review-status" data-status={status}>
      {t(`funds.status.${status}`)}
    </Tag>
  );
}
