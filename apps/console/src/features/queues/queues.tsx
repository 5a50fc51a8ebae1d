import type { ColumnsType } from 'antd/es/table';
import type { ComponentType } from 'react';
import { yenText } from '@/shared/format';
import type { useLocale } from '@/shared/locale';
import { BankAccountDetail, DepositDetail, IdentityDetail, WithdrawalDetail } from './queue-details';
import type { QueueItem, QueueKind } from './queue-api';

type TFn = ReturnType<typeof useLocale>['t'];
type Locale = ReturnType<typeof useLocale>['locale'];

/**
 * One description per review queue: its title, what its approved items are called, the columns particular to
 * it (between the user and the submission time) and the detail shown in the review drawer. The queue page and
 * the dashboard are the same for every queue apart from these.
 */
export interface QueueDescription<K extends QueueKind> {
  title: 'nav.identity' | 'nav.bankAccounts' | 'nav.deposits' | 'nav.withdrawals';
  approvedLabel: 'status.passed' | 'status.approved';
  columns: (t: TFn, locale: Locale) => ColumnsType<QueueItem<K>>;
  Detail: ComponentType<{ item: QueueItem<K> }>;
}

export const QUEUES: { [K in QueueKind]: QueueDescription<K> } = {
  identity: {
    title: 'nav.identity',
    approvedLabel: 'status.passed',
    columns: (t) => [
      { title: t('identity.fullName'), key: 'full_name', dataIndex: 'full_name' },
      { title: t('identity.idNumber'), key: 'id_number', dataIndex: 'id_number' },
    ],
    Detail: IdentityDetail,
  },
  'bank-accounts': {
    title: 'nav.bankAccounts',
    approvedLabel: 'status.approved',
    columns: (t) => [
      { title: t('bank.holder'), key: 'holder', dataIndex: 'holder_name' },
      {
        title: t('bank.verifiedName'),
        key: 'verified',
        render: (_, r) => r.verified_name ?? t('common.none'),
      },
      { title: t('bank.bankName'), key: 'bank', dataIndex: 'bank_name' },
    ],
    Detail: BankAccountDetail,
  },
  deposits: {
    title: 'nav.deposits',
    approvedLabel: 'status.approved',
    columns: (t, locale) => [
      {
        title: t('deposit.amount'),
        key: 'amount',
        align: 'right',
        render: (_, r) => yenText(r.amount, locale),
      },
      { title: t('deposit.transferDate'), key: 'date', dataIndex: 'transfer_date' },
      {
        title: t('reconciliation.transfer'),
        key: 'transfer',
        render: (_, r) =>
          r.transfer_id !== null
            ? t('reconciliation.matchedShort')
            : r.first_approved_by === null
              ? t('reconciliation.unmatchedShort')
              : `1 / 2 (${r.first_approved_by})`,
      },
    ],
    Detail: DepositDetail,
  },
  withdrawals: {
    title: 'nav.withdrawals',
    approvedLabel: 'status.approved',
    columns: (t, locale) => [
      {
        title: t('withdrawal.amount'),
        key: 'amount',
        align: 'right',
        render: (_, r) => yenText(r.amount, locale),
      },
      { title: t('withdrawal.holder'), key: 'holder', dataIndex: 'holder_name' },
      {
        title: t('withdrawal.chain'),
        key: 'chain',
        render: (_, r) =>
          r.needs_second_approval
            ? r.first_approved_by === null
              ? '0 / 2'
              : `1 / 2 (${r.first_approved_by})`
            : '',
      },
    ],
    Detail: WithdrawalDetail,
  },
};
