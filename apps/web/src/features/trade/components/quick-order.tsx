import type { TStockRow, TTradingRules } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FeeScheduleNote,
  OrderTicketForm,
  useFeeScheduleText,
  useTicketDialogs,
} from '@/domains/trading/order-ticket/order-ticket-view';
import { useOrderTicket } from '@/domains/trading/order-ticket/use-order-ticket';
import { type PickedStockTicketProps, StockPicker } from '@/domains/trading/stock-picker';
import { rulesQuery } from '@/domains/trading/trading-api';
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
function QuickOrderTicket({ rows, stock, rules, onPick }: PickedStockTicketProps) {
  const { t } = useTranslation();
  const feeSchedule = useFeeScheduleText(rules);
  const ticket = useOrderTicket({
    stock,
    quote: stock.quote,
    rules,
    dialogs: useTicketDialogs(
      <>
        <p className="trade-confirm__note" data-testid="order-confirm-fees">
          {feeSchedule}
        </p>
        <p className="trade-confirm__note">{t('aiTrade.confirmOwnDecision')}</p>
      </>,
    ),
  });
  return (
    <OrderTicketForm
      ticket={ticket}
      variant="compact"
      label={t('aiTrade.orderTitle')}
      className="order-form ai-order"
      header={
        <StockPicker rows={rows} stock={stock} ticket={ticket} onPick={onPick} testIdPrefix="ai-order" />
      }
    />
  );
}
