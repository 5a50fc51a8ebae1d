import type { TBrokerageAccount } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { brokerageQuery } from './brokerage-api';

/**
 * In place of an order form until the securities account is open (issue 23): no buying power, no order
 * button, what to do next and a link to the application. Prices stay on the page around it.
 */
export function AccountOpeningPrompt({ status }: { status: TBrokerageAccount['status'] }) {
  const { t } = useTranslation();
  const body =
    status === 'pending'
      ? t('opening.promptPending')
      : status === 'rejected'
        ? t('opening.promptRejected')
        : t('opening.promptBody');
  return (
    <section className="account-opening-prompt" data-testid="account-opening-prompt" data-status={status}>
      <Result
        status={status === 'pending' ? 'waiting' : 'info'}
        title={t('opening.promptTitle')}
        description={body}
      />
      <Button
        block
        color="primary"
        onClick={() => {
          navigateTo(PAGE_PATHS.realName);
        }}
      >
        {status === 'none' || status === 'rejected' ? t('opening.promptAction') : t('opening.promptStatus')}
      </Button>
    </section>
  );
}

/**
 * Renders its children (an order form) only for a customer whose securities account is open; a logged-in
 * customer without one sees the prompt instead. Nobody logged in: the children decide (they ask to log in).
 */
export function OpenAccountGate({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data } = useQuery(brokerageQuery(userId, token));
  if (token === null) return <>{children}</>;
  if (data === undefined) return null;
  if (data.status !== 'open') return <AccountOpeningPrompt status={data.status} />;
  return <>{children}</>;
}
