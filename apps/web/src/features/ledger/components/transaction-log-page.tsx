import { LEDGER_ENTRY_KINDS, sen, type LedgerEntryKind, type TLedgerMovement } from '@kabuto/contract';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, formattersFor } from '@/shared/format/format';
import { useSession } from '@/shared/session/session';
import { downloadStatement, movementsQuery, saveBlob, verifyStatement } from '@/domains/trading/trading-api';
import { DateField } from '@/shared/ui/date-field';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { Segmented } from '@/shared/ui/segmented';
import { showSuccess } from '@/shared/ui/overlays';
import { isIsoDate, presetPeriod, tokyoDate, type Period, type PeriodPreset } from '../period';
import { useLocale } from '@/shared/i18n/use-locale';
import {
  isLedgerEntryKind,
  kindLabel,
  memoText,
  movementOpening,
  movementState,
  movementTitle,
} from '../texts';

/**
 * /subPackages/transactionLog/transactionLog: the user's money as they see it, one line per order, deposit
 * or withdrawal (GET /api/ledger/movements), newest first, and the CSV statement of every ledger line.
 */
export function TransactionLogPage() {
  return (
    <RequireLogin>
      <TransactionLog />
    </RequireLogin>
  );
}

function TransactionLog() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const locale = useLocale();
  const [kind, setKind] = useState<LedgerEntryKind | ''>('');
  const [preset, setPreset] = useState<PeriodPreset>('all');
  const [period, setPeriod] = useState<Period>({ from: '', to: '' });
  const kindId = useId();

  const filter = {
    kind,
    from: isIsoDate(period.from) ? period.from : '',
    to: isIsoDate(period.to) ? period.to : '',
  };
  const query = useInfiniteQuery(movementsQuery(userId, token, filter));
  const movements = query.data?.pages.flatMap((p) => p.items) ?? [];
  const total = query.data?.pages[0]?.total ?? 0;
  const cashBalance = query.data?.pages[0]?.cash_balance;

  const choosePreset = (next: PeriodPreset) => {
    setPreset(next);
    if (next !== 'custom') setPeriod(presetPeriod(next, new Date()));
  };

  const download = useMutation({
    mutationFn: () => downloadStatement(filter),
    onSuccess: (file) => {
      const name =
        file.filename ??
        `kabuto-statement-${filter.from || 'start'}-${filter.to || tokyoDate(new Date())}.csv`;
      saveBlob(file.blob, name);
      showSuccess(t('ledger.downloaded'));
    },
  });

  return (
    <div className="ledger-page">
      <section className="ledger-filters" aria-label={t('ledger.filters')}>
        <div className="ledger-filters__row">
          <label htmlFor={kindId}>{t('ledger.kind')}</label>
          <select
            id={kindId}
            className="ledger-select"
            value={kind}
            onChange={(event) => {
              const next = event.target.value;
              setKind(isLedgerEntryKind(next) ? next : '');
            }}
          >
            <option value="">{t('ledger.allKinds')}</option>
            {LEDGER_ENTRY_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(t, k)}
              </option>
            ))}
          </select>
        </div>
        <Segmented<PeriodPreset>
          label={t('ledger.period')}
          value={preset}
          onChange={choosePreset}
          testId="ledger-preset"
          options={[
            { value: 'today', label: t('ledger.today') },
            { value: 'week', label: t('ledger.week') },
            { value: 'month', label: t('ledger.month') },
            { value: 'all', label: t('ledger.all') },
          ]}
        />
        <div className="ledger-filters__dates">
          <DateField
            label={t('ledger.from')}
            value={period.from}
            max={period.to === '' ? undefined : period.to}
            clearable
            testId="ledger-from"
            onChange={(from) => {
              setPreset('custom');
              setPeriod((p) => ({ ...p, from }));
            }}
          />
          <DateField
            label={t('ledger.to')}
            value={period.to}
            min={period.from === '' ? undefined : period.from}
            clearable
            testId="ledger-to"
            onChange={(to) => {
              setPreset('custom');
              setPeriod((p) => ({ ...p, to }));
            }}
          />
        </div>
      </section>

      <section className="ledger-statement" aria-label={t('ledger.statement')}>
        <Button
          block
          color="primary"
          fill="outline"
          loading={download.isPending}
          onClick={() => {
            download.mutate();
          }}
        >
          {t('ledger.download')}
        </Button>
        <VerifyStatement />
      </section>

      {cashBalance !== undefined && (
        <p className="ledger-summary">
          {t('ledger.latestCash')}:{' '}
          <strong data-testid="ledger-cash-balance">{formatMoney(cashBalance, locale)}</strong>
        </p>
      )}

      {query.isPending ? (
        <PageLoading />
      ) : movements.length === 0 ? (
        <EmptyState description={t('ledger.empty')} />
      ) : (
        <>
          <p className="ledger-count">{t('ledger.count', { shown: movements.length, total })}</p>
          <ol className="ledger-list" data-testid="ledger-list" aria-label={t('titles.transactionLog')}>
            {movements.map((movement) => (
              <MovementRow key={movement.key} movement={movement} />
            ))}
          </ol>
          {query.hasNextPage && (
            <Button
              block
              fill="none"
              loading={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {t('ledger.loadMore')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

/**
 * One movement: what it is (a purchase, a withdrawal...), its state (requested, paid, returned...), its net
 * change of available cash and, when that differs, what it started with (a returned withdrawal nets to zero
 * but was a request for its amount).
 */
function MovementRow({ movement }: { movement: TLedgerMovement }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const cash = movement.cash;
  const state = movementState(t, movement);
  const opening = movementOpening(t, movement, formatMoney(sen(Math.abs(movement.opening_cash)), locale));
  const memo = memoText(t, formattersFor(locale), movement);
  return (
    <li
      className="ledger-row"
      data-testid="movement"
      data-key={movement.key}
      data-kind={movement.kind}
      data-state={movement.state}
    >
      <div className="ledger-row__main">
        <span className="ledger-row__kind" data-testid="movement-title">
          {movementTitle(t, movement)}
        </span>
        <span
          className={`ledger-row__amount ${cash > 0 ? 'money-in' : cash < 0 ? 'money-out' : ''}`}
          data-testid="movement-cash"
        >
          {cash !== 0 && <span className="visually-hidden">{t(cash > 0 ? 'ledger.in' : 'ledger.out')} </span>}
          {cash > 0 ? '+' : cash < 0 ? '−' : ''}
          {formatMoney(sen(Math.abs(cash)), locale)}
        </span>
      </div>
      <div className="ledger-row__meta">
        <time dateTime={movement.updated_at}>{formatDateTime(movement.updated_at, locale)}</time>
        {state !== null && <span data-testid="movement-state">{state}</span>}
        {opening !== null && <span data-testid="movement-opening">{opening}</span>}
      </div>
      {memo !== null && <div className="ledger-row__memo">{memo}</div>}
    </li>
  );
}

function VerifyStatement() {
  const { t } = useTranslation();
  const id = useId();
  const verify = useMutation({ mutationFn: (csv: string) => verifyStatement(csv) });
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const result = verify.data;
  return (
    <div className="verify-statement">
      <label htmlFor={id} className="verify-statement__label">
        {t('ledger.verify')}
      </label>
      {/* the browser's own file input would say "Choose File / No file chosen" in its own language: it stays
          hidden (and labelled, for assistive technology), and the kit's button and the name chosen stand in */}
      <input
        ref={input}
        id={id}
        className="visually-hidden"
        type="file"
        accept=".csv,text/csv"
        data-testid="verify-input"
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file === undefined) return;
          setChosen(file.name);
          void file.text().then((text) => {
            verify.mutate(text);
          });
        }}
      />
      <div className="verify-statement__choose">
        <Button
          size="small"
          onClick={() => {
            input.current?.click();
          }}
        >
          {t('ledger.chooseFile')}
        </Button>
        <span className="verify-statement__file" data-testid="verify-file">
          {chosen ?? t('ledger.noFile')}
        </span>
      </div>
      <p className="verify-statement__hint">{t('ledger.verifyHint')}</p>
      <div role="status" aria-live="polite" data-testid="verify-result">
        {verify.isPending && t('ledger.verifying')}
        {result !== undefined &&
          (result.valid ? (
            <p className="verify-result verify-result--ok">{t('ledger.verifyOk', { lines: result.lines })}</p>
          ) : (
            <p className="verify-result verify-result--bad">
              {result.first_bad_line === null
                ? t('ledger.verifyInvalid', { problem: result.problem ?? '' })
                : t('ledger.verifyBad', { line: result.first_bad_line, problem: result.problem ?? '' })}
            </p>
          ))}
      </div>
    </div>
  );
}
