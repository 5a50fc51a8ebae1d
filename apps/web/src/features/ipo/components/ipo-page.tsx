import {
  sen,
  type Locale,
  type TApplication,
  type TDrawRecord,
  type TOffering,
  type TOfferingKind,
} from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { verifyDrawInBrowser, type DrawProblem } from '@kabuto/contract/draw';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '@/domains/trading/idempotent';
import { accountLabel } from '@/domains/trading/order-labels';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import {
  applicationAction,
  applicationsQuery,
  applyFor,
  fetchDrawRecord,
  ipoKeys,
  offeringsQuery,
} from '../api/ipo-queries';
import { confirmPurchaseUrl } from './confirm-page';

/** /subPackages/index/ipo/ipo: IPOs (book-building, draw, purchase, listing). */
export function IpoPage() {
  return (
    <RequireLogin>
      <Offerings kind="ipo" />
    </RequireLogin>
  );
}

/** /subPackages/index/dadan/dadan: off-auction distributions (立会外分売). */
export function BlockTradePage() {
  return (
    <RequireLogin>
      <Offerings kind="distribution" />
    </RequireLogin>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function Offerings({ kind }: { kind: TOfferingKind }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const offerings = useQuery(offeringsQuery(userId, token, kind));
  const applications = useQuery(applicationsQuery(userId, token));
  if (offerings.isPending) return <PageLoading />;
  const items = offerings.data?.items ?? [];
  return (
    <div className="ipo-page" style={{ padding: 12 }}>
      <p>{t(kind === 'ipo' ? 'ipo.introIpo' : 'ipo.introDistribution')}</p>
      {kind === 'ipo' && applications.data && (
        <p data-testid="ipo-points">{t('ipo.points', { n: applications.data.points })}</p>
      )}
      {items.length === 0 ? (
        <EmptyState />
      ) : (
        items.map((o) => (
          <OfferingCard
            key={o.id}
            offering={o}
            mine={applications.data?.items.find((a) => a.offering_id === o.id && a.state !== 'withdrawn')}
            locale={locale}
          />
        ))
      )}
      {kind === 'ipo' && applications.data && (
        <WinningHistory items={applications.data.items} locale={locale} />
      )}
    </div>
  );
}

/** 当選履歴: the user's won IPO allocations (won, purchased, declined or lapsed), newest first. */
function WinningHistory({ items, locale }: { items: readonly TApplication[]; locale: Locale }) {
  const { t } = useTranslation();
  const wins = items.filter((a) => a.kind === 'ipo' && a.won_units > 0);
  return (
    <section aria-labelledby="ipo-history" data-testid="winning-history">
      <h2 id="ipo-history" style={{ fontSize: 16 }}>
        {t('ipo.historyTitle')}
      </h2>
      {wins.length === 0 ? (
        <p>{t('ipo.historyEmpty')}</p>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {wins.map((a) => (
            <li key={a.id} style={{ borderBottom: '1px solid #eee', padding: '8px 0' }}>
              <div>
                <strong>
                  {a.name} ({a.code})
                </strong>{' '}
                · {t(`ipo.states.${a.state}`)}
              </div>
              <div>
                {t('ipo.won', { n: a.won_units })} · {t('ipo.amountDue')}: {formatMoney(a.amount_due, locale)}{' '}
                · {t('ipo.amountPaid')}: {formatMoney(a.amount_paid, locale)}
              </div>
              <div style={{ fontSize: 12, color: '#595959' }}>{formatDateTime(a.created_at, locale)}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function money(value: number | null, locale: Locale) {
  return value === null ? '—' : formatMoney(sen(value), locale);
}

function OfferingCard({
  offering: o,
  mine,
  locale,
}: {
  offering: TOffering;
  mine: TApplication | undefined;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [units, setUnits] = useState('1');
  const [bid, setBid] = useState('');
  const [account, setAccount] = useState<'' | 'specific' | 'general' | 'nisa'>('');
  const [busy, setBusy] = useState(false);
  // the draw record and what this browser's own recomputation found in it ([] when every field matches)
  const [record, setRecord] = useState<{ record: TDrawRecord; problems: DrawProblem[] } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ipoKeys.all() });
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      showSuccess(done);
      await refresh();
    } catch (error) {
      showToast(errorText(error), 3000);
    } finally {
      setBusy(false);
    }
  };
  const when = (iso: string | null) => (iso === null ? '—' : formatDateTime(iso, locale));
  return (
    <section
      className="ipo-card"
      style={{ border: '1px solid #ddd', borderRadius: 8, padding: 12, marginBottom: 12 }}
      aria-labelledby={`ipo-${o.id}`}
      data-testid={`offering-${o.code}`}
    >
      <h2 id={`ipo-${o.id}`} style={{ fontSize: 16, margin: 0 }}>
        {o.name} ({o.code}) · {t(`ipo.phases.${o.phase}`)}
      </h2>
      <dl style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 8px', margin: '8px 0' }}>
        <dt>{t('ipo.market')}</dt>
        <dd>{o.market}</dd>
        {o.kind === 'ipo' ? (
          <>
            <dt>{t('ipo.range')}</dt>
            <dd>
              {money(o.price_low, locale)} – {money(o.price_high, locale)}
            </dd>
          </>
        ) : (
          <>
            <dt>{t('ipo.formula')}</dt>
            <dd>
              {o.base_close === null
                ? t('ipo.formulaPending', { discount: ((o.discount_bps ?? 0) / 100).toFixed(2) })
                : t('ipo.formulaText', {
                    close: money(o.base_close, locale),
                    discount: ((o.discount_bps ?? 0) / 100).toFixed(2),
                  })}
            </dd>
          </>
        )}
        <dt>{t('ipo.offerPrice')}</dt>
        <dd data-testid="offer-price">{money(o.offer_price, locale)}</dd>
        <dt>{t('ipo.offeringQuantity')}</dt>
        <dd>{t('ipo.shares', { n: o.offering_units * o.unit_shares })}</dd>
        <dt>{t('ipo.cap')}</dt>
        <dd>{t('ipo.units', { n: o.cap_units })}</dd>
        <dt>{t('ipo.window')}</dt>
        <dd>
          {when(o.window_open)} – {when(o.window_close)}
        </dd>
        <dt>{t('ipo.drawDate')}</dt>
        <dd>{when(o.draw_at)}</dd>
        {o.purchase_deadline && (
          <>
            <dt>{t('ipo.purchaseDeadline')}</dt>
            <dd>{when(o.purchase_deadline)}</dd>
          </>
        )}
        <dt>{t(o.kind === 'ipo' ? 'ipo.listingDate' : 'ipo.deliveryDate')}</dt>
        <dd>{when(o.listing_at)}</dd>
        <dt>{t('ipo.policy')}</dt>
        <dd>
          {o.policy.kind === 'equal'
            ? t('ipo.policyEqual')
            : t('ipo.policyWeighted', {
                lottery: (100 - o.policy.points_bps / 100).toFixed(0),
                points: (o.policy.points_bps / 100).toFixed(0),
              })}
        </dd>
        <dt>{t('ipo.seedHash')}</dt>
        <dd style={{ wordBreak: 'break-all', fontSize: 11 }}>{o.seed_hash}</dd>
      </dl>
      {mine ? (
        <div data-testid="my-application">
          <p>
            <strong data-testid="application-state">
              {t(o.kind === 'ipo' ? `ipo.states.${mine.state}` : `ipo.distributionStates.${mine.state}`)}
            </strong>
            {mine.reason && mine.reason !== 'withdrawn' ? ` (${t(`ipo.reasons.${mine.reason}`)})` : ''}
          </p>
          <p>
            {t('ipo.applied', { n: mine.units })} · {t('ipo.won', { n: mine.won_units })} ·{' '}
            {t('ipo.amountDue')}: {formatMoney(mine.amount_due, locale)} · {t('ipo.amountPaid')}:{' '}
            {formatMoney(mine.amount_paid, locale)}
          </p>
          {mine.account !== null && (
            <p data-testid="application-account">
              {t('ipo.accountLabel')}: {accountLabel(t, mine.account)}
            </p>
          )}
          {mine.state === 'applied' && o.phase === 'open' && (
            <Button
              size="small"
              disabled={busy}
              onClick={() =>
                void run(
                  () => applicationAction({ id: mine.id, action: 'withdraw' }, newIdempotencyKey()),
                  t('ipo.withdrawn'),
                )
              }
            >
              {t('ipo.withdraw')}
            </Button>
          )}
          {mine.state === 'won' && (
            <>
              <Button
                size="small"
                color="primary"
                disabled={busy}
                data-testid="confirm-purchase"
                onClick={() => {
                  // the purchase is confirmed on its own screen (購入意思表示): figures, deadline, then the answer
                  navigateTo(confirmPurchaseUrl(mine.id));
                }}
              >
                {t('ipo.confirm')}
              </Button>{' '}
              <Button
                size="small"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => applicationAction({ id: mine.id, action: 'decline' }, newIdempotencyKey()),
                    t('ipo.declined'),
                  )
                }
              >
                {t('ipo.decline')}
              </Button>
            </>
          )}
        </div>
      ) : (
        o.phase === 'open' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const bidYen = bid.trim() === '' ? null : Number(bid);
              void run(
                () =>
                  applyFor(
                    {
                      id: o.id,
                      body: {
                        units: Number(units),
                        bid_price: bidYen === null ? null : sen(Math.round(bidYen * 100)),
                        ...(account === '' ? {} : { account }),
                      },
                    },
                    newIdempotencyKey(),
                  ),
                t('ipo.appliedToast'),
              );
            }}
          >
            <label>
              {t('ipo.unitsLabel')}{' '}
              <input
                type="number"
                min={1}
                max={o.cap_units}
                value={units}
                onChange={(e) => {
                  setUnits(e.target.value);
                }}
                data-testid="apply-units"
              />
            </label>
            {o.kind === 'ipo' && o.offer_price === null && (
              <label style={{ display: 'block' }}>
                {t('ipo.bidLabel')}{' '}
                <input
                  type="number"
                  value={bid}
                  placeholder={t('ipo.atOfferPrice')}
                  onChange={(e) => {
                    setBid(e.target.value);
                  }}
                />
              </label>
            )}
            <label style={{ display: 'block' }}>
              {t('ipo.accountLabel')}{' '}
              <select
                value={account}
                onChange={(e) => {
                  const v = e.target.value;
                  setAccount(v === 'specific' || v === 'general' || v === 'nisa' ? v : '');
                }}
                data-testid="apply-account"
              >
                <option value="">{t('ipo.accountDefault')}</option>
                <option value="specific">{t('ipo.accountSpecific')}</option>
                <option value="general">{t('ipo.accountGeneral')}</option>
                <option value="nisa">{t('ipo.accountNisa')}</option>
              </select>
            </label>
            {account === 'nisa' && <p className="muted">{t('ipo.accountNote')}</p>}
            <Button type="submit" size="small" color="primary" disabled={busy} data-testid="apply">
              {t('ipo.apply')}
            </Button>
          </form>
        )
      )}
      {o.seed !== null && (
        <div>
          <Button
            size="small"
            data-testid="verify-draw"
            onClick={() =>
              void fetchDrawRecord(o.id)
                .then(async (r) => {
                  const problems = await verifyDrawInBrowser({
                    ...r,
                    seed: r.seed ?? '',
                    list_hash: r.list_hash ?? '',
                  });
                  setRecord({ record: r, problems });
                })
                .catch((error: unknown) => {
                  showToast(errorText(error), 3000);
                })
            }
          >
            {t('ipo.verify')}
          </Button>
          {record && (
            <p data-testid="verify-result" role="status">
              {record.problems.length === 0
                ? t('ipo.verified', { n: record.record.applications.length })
                : t('ipo.notVerified')}
              {mine && ` ${t('ipo.yourEntry', { pseudonym: mine.pseudonym })}`}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
