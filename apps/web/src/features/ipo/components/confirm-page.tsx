import { sen, type Locale, type TApplication, type TOffering } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo, redirectTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { userInfoKeys, useUserInfo } from '@/shared/session/user-info-query';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import { applicationAction, applicationsQuery, ipoKeys, offeringsQuery } from '../api/ipo-queries';
import { dialog } from '@/shared/ui/overlays';

/** The confirm page of one won allocation. */
export const confirmPurchaseUrl = (applicationId: number) =>
  `${PAGE_PATHS.confirm}?application=${String(applicationId)}`;

/**
 * /subPackages/confirm/confirm: 購入意思表示, the confirmation screen of a won IPO allocation (issue 19).
 * The specification names the route and nothing else; in a Japanese broker's app the screen that must come
 * between a result and money leaving the account is this one: what was won, at what price, what it costs,
 * what is already held for it, what comes out of cash now, and the deadline after which the win lapses.
 * Buying or declining is one request each (with its Idempotency-Key); the server decides (the figures here
 * only explain). Without `?application=` it lists the wins still waiting for an answer.
 */
export function ConfirmPage() {
  return (
    <RequireLogin>
      <Confirm />
    </RequireLogin>
  );
}

function Confirm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const applications = useQuery(applicationsQuery(userId, token));
  const offerings = useQuery(offeringsQuery(userId, token, 'ipo'));
  const raw = params.get('application');
  const id = raw !== null && /^\d{1,12}$/.test(raw) ? Number(raw) : null;
  if (applications.isPending || offerings.isPending) return <PageLoading />;
  const items = applications.data?.items ?? [];
  const waiting = items.filter((a) => a.kind === 'ipo' && a.state === 'won');
  if (raw === null) return <Waiting items={waiting} />;
  const application = items.find((a) => a.id === id && a.kind === 'ipo');
  const offering = offerings.data?.items.find((o) => o.id === application?.offering_id);
  if (application === undefined || offering === undefined) {
    return (
      <div className="confirm-page">
        <EmptyState description={t('confirmPurchase.notFound')}>
          <BackToIpo />
        </EmptyState>
      </div>
    );
  }
  return <ConfirmOne application={application} offering={offering} />;
}

function BackToIpo() {
  const { t } = useTranslation();
  return (
    <Button
      color="primary"
      fill="outline"
      onClick={() => {
        navigateTo(PAGE_PATHS.ipo);
      }}
    >
      {t('confirmPurchase.toIpo')}
    </Button>
  );
}

/** The wins still waiting for a purchase or a decline. */
function Waiting({ items }: { items: readonly TApplication[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="confirm-page">
      <p className="confirm-page__intro">{t('confirmPurchase.listIntro')}</p>
      {items.length === 0 ? (
        <EmptyState description={t('confirmPurchase.noneWaiting')}>
          <BackToIpo />
        </EmptyState>
      ) : (
        <ul className="confirm-page__list" data-testid="confirm-waiting">
          {items.map((a) => (
            <li key={a.id}>
              <a
                href={`#${confirmPurchaseUrl(a.id)}`}
                onClick={(event) => {
                  event.preventDefault();
                  navigateTo(confirmPurchaseUrl(a.id));
                }}
              >
                <strong>
                  {a.name} ({a.code})
                </strong>
                <span>
                  {t('ipo.won', { n: a.won_units })} · {t('ipo.amountDue')}:{' '}
                  {formatMoney(a.amount_due, locale)}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ConfirmOne({ application: a, offering: o }: { application: TApplication; offering: TOffering }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const { userInfo } = useUserInfo();
  const [busy, setBusy] = useState(false);
  // one Idempotency-Key per answer; a resend after an unknown outcome reuses it (no second payment)
  const answer = useMemo(
    () =>
      createIdempotentAction((action: 'confirm' | 'decline', key: string) =>
        applicationAction({ id: a.id, action }, key),
      ),
    [a.id],
  );
  const fromCash = Math.max(0, a.amount_due - a.reserved);
  const available = userInfo?.available_balance ?? null;
  const shortfall = available !== null && fromCash > available ? fromCash - available : 0;
  const deadline = o.purchase_deadline;
  // the purchase window is the server's to judge (its clock): a win of an offering still in its drawn phase
  const open = a.state === 'won' && o.phase === 'drawn';

  async function run(action: 'confirm' | 'decline', done: string) {
    setBusy(true);
    try {
      const answered = await sendWithRetry(answer, action, () =>
        dialog.confirm({
          content: t('funds.retryPrompt'),
          confirmText: t('funds.retry'),
          cancelText: t('common.cancel'),
        }),
      );
      if (answered === null) return;
      showSuccess(done);
      await Promise.all([
        client.invalidateQueries({ queryKey: ipoKeys.all() }),
        client.invalidateQueries({ queryKey: userInfoKeys.all }),
      ]);
      redirectTo(PAGE_PATHS.ipo);
    } catch (error) {
      showToast(error instanceof Error ? error.message : String(error), 3000);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="confirm-page" data-testid="confirm-purchase-page">
      <h2 className="confirm-page__name">
        {a.name} ({a.code})
      </h2>
      <p className="confirm-page__intro">{t('confirmPurchase.intro')}</p>
      <dl className="confirm-page__rows">
        <Row
          label={t('ipo.offerPrice')}
          value={o.offer_price === null ? '—' : money(o.offer_price, locale)}
        />
        <Row
          label={t('confirmPurchase.wonShares')}
          value={`${t('ipo.units', { n: a.won_units })} (${t('ipo.shares', { n: a.won_units * o.unit_shares })})`}
        />
        <Row label={t('ipo.amountDue')} value={money(a.amount_due, locale)} testId="confirm-amount-due" />
        <Row label={t('confirmPurchase.reserved')} value={money(a.reserved, locale)} />
        <Row
          label={t('confirmPurchase.fromCash')}
          value={money(fromCash, locale)}
          testId="confirm-from-cash"
        />
        <Row
          label={t('confirmPurchase.available')}
          value={available === null ? '—' : money(available, locale)}
        />
        <Row
          label={t('ipo.purchaseDeadline')}
          value={deadline === null ? '—' : formatDateTime(deadline, locale)}
        />
        <Row label={t('ipo.listingDate')} value={formatDateTime(o.listing_at, locale)} />
      </dl>
      {!open ? (
        <p className="confirm-page__state" role="status" data-testid="confirm-state">
          {t('confirmPurchase.answered', { state: t(`ipo.states.${a.state}`) })}
        </p>
      ) : (
        <>
          <p className="confirm-page__lapse">{t('confirmPurchase.lapseNote')}</p>
          {shortfall > 0 && (
            <div className="confirm-page__shortfall" role="alert" data-testid="confirm-shortfall">
              <p>{t('confirmPurchase.shortfall', { amount: money(shortfall, locale) })}</p>
              <Button
                size="small"
                color="primary"
                fill="outline"
                onClick={() => {
                  navigateTo(PAGE_PATHS.recharge);
                }}
              >
                {t('confirmPurchase.deposit')}
              </Button>
            </div>
          )}
          <div className="confirm-page__actions">
            <Button
              block
              color="primary"
              size="large"
              loading={busy}
              disabled={busy || shortfall > 0}
              data-testid="confirm-submit"
              onClick={() => void run('confirm', t('ipo.confirmed'))}
            >
              {t('confirmPurchase.buy', { amount: money(a.amount_due, locale) })}
            </Button>
            <Button
              block
              size="large"
              disabled={busy}
              data-testid="confirm-decline"
              onClick={() => {
                void dialog
                  .confirm({
                    content: t('confirmPurchase.declineAsk', { name: a.name }),
                    confirmText: t('ipo.decline'),
                    cancelText: t('common.cancel'),
                  })
                  .then((yes) => {
                    if (yes) void run('decline', t('ipo.declined'));
                  });
              }}
            >
              {t('ipo.decline')}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}

function money(value: number, locale: Locale) {
  return formatMoney(sen(value), locale);
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </>
  );
}
