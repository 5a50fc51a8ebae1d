import type { TStockRow, TTradingRules } from '@kabuto/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderTicket } from './order-ticket/use-order-ticket';

/** The props of an order ticket with a stock picker: the stocks, the picked one, the rules, the pick. */
export interface PickedStockTicketProps {
  rows: readonly TStockRow[];
  stock: TStockRow;
  rules: TTradingRules;
  onPick: (code: string) => void;
}

/**
 * The stock picker at the head of a compact order ticket: a labelled select of the tradable stocks and
 * the picked stock's last price. Picking another stock restarts the ticket at that stock's last price
 * (the fields keep their values). Test ids: `${testIdPrefix}-stock` and `${testIdPrefix}-last`.
 */
export function StockPicker({
  rows,
  stock,
  ticket,
  onPick,
  testIdPrefix,
}: {
  rows: readonly TStockRow[];
  stock: TStockRow;
  ticket: Pick<OrderTicket, 'restartFor' | 'price'>;
  onPick: (code: string) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const pickerId = useId();
  return (
    <div className="trade-picker">
      <label className="stepper-field__label" htmlFor={pickerId}>
        {t('trading.stock')}
      </label>
      <select
        id={pickerId}
        className="trade-picker__select"
        value={stock.code}
        data-testid={`${testIdPrefix}-stock`}
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
      <p className="stepper-field__hint" data-testid={`${testIdPrefix}-last`}>
        {t('aiTrade.lastPrice', { price: ticket.price(stock.quote.last) })}
      </p>
    </div>
  );
}
