import type { TStockRow, TTradingRules } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FeeScheduleNote,
  OrderTicketForm,
  useFeeScheduleText,
} from '@/shared/trading/order-ticket/order-ticket-view';
import { useOrderTicket } from '@/shared/trading/order-ticket/use-order-ticket';
import { rulesQuery } from '@/shared/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';

/**
 * A compact order entry for the stocks the tab lists: the same order ticket as the stock page's order
 * form (POST /api/trade/placeOrder with one Idempotency-Key per attempt, the same key on a retry), a
 * confirm dialog with the estimate from the shared order figures and the published fee schedule first.
 */
export function QuickOrder({ rows }: { rows: readonly TStockRow[] }) {
  const { t } = useTranslation();
  const rules = useQuery(rulesQuery()).data;
  const tradable = useMemo(() => rows.filter((r) => r.tradable), [rows]);
  if (tradable.length === 0) return <EmptyState description={t('aiTrade.noTradable')} />;
  return (
    <>
      <FeeScheduleNote rules={rules} testId="ai-fee-schedule" />
      {rules !== undefined && <QuickOrderForm rows={tradable} rules={rules} />}
    </>
  );
}

function QuickOrderForm({ rows, rules }: { rows: readonly TStockRow[]; rules: TTradingRules }) {
  const [pickedCode, setCode] = useState<string>('');
  // The picked stock, or the first one listed; its quote streams into the list's cache.
  const stock = rows.find((r) => r.code === pickedCode) ?? rows[0];
  if (stock === undefined) return null;
  return <QuickOrderTicket rows={rows} stock={stock} rules={rules} onPick={setCode} />;
}

/** One ticket across stock picks: the fields keep their values when another stock is picked. */
function QuickOrderTicket({
  rows,
  stock,
  rules,
  onPick,
}: {
  rows: readonly TStockRow[];
  stock: TStockRow;
  rules: TTradingRules;
  onPick: (code: string) => void;
}) {
  const { t } = useTranslation();
  const feeSchedule = useFeeScheduleText(rules);
  const pickerId = useId();
  const ticket = useOrderTicket({
    stock,
    quote: stock.quote,
    rules,
    confirmNotes: (
      <>
        <p className="ai-confirm__note" data-testid="order-confirm-fees">
          {feeSchedule}
        </p>
        <p className="ai-confirm__note">{t('aiTrade.confirmOwnDecision')}</p>
      </>
    ),
  });
  return (
    <OrderTicketForm
      ticket={ticket}
      variant="compact"
      label={t('aiTrade.orderTitle')}
      className="order-form ai-order"
      header={
        <div className="ai-order__picker">
          <label className="stepper-field__label" htmlFor={pickerId}>
            {t('trading.stock')}
          </label>
          <select
            id={pickerId}
            className="ai-order__select"
            value={stock.code}
            data-testid="ai-order-stock"
            onChange={(event) => {
              const code = event.target.value;
              onPick(code);
              ticket.restartFor(rows.find((r) => r.code === code)?.quote.last);
            }}
          >
            {rows.map((row) => (
              <option key={row.code} value={row.code}>
                {`${row.name} (${row.code})`}
              </option>
            ))}
          </select>
          <p className="stepper-field__hint" data-testid="ai-order-last">
            {t('aiTrade.lastPrice', { price: ticket.price(stock.quote.last) })}
          </p>
        </div>
      }
    />
  );
}
