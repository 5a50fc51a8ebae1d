import type { TQuote, TTradingRules } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { navigateTo } from '@/shared/navigation/nav';
import { ordersUrl } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import {
  FeeScheduleNote,
  OrderTicketForm,
  useTicketDialogs,
} from '@/domains/trading/order-ticket/order-ticket-view';
import { useOrderTicket } from '@/domains/trading/order-ticket/use-order-ticket';
import { rulesQuery } from '@/domains/trading/trading-api';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { useStock } from '../live-stock';
import { selectQuote, type StockInfo } from '../stock-selectors';

/** The order form below the chart: 現物買 (cash) by default, or 信用新規買 / 信用新規売 (margin), in lots of 100. */
export function OrderPanel({ stock }: { stock: StockInfo }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const rules = useQuery(rulesQuery()).data;
  return (
    <section className="order-panel" aria-labelledby="order-panel-title">
      <h2 id="order-panel-title" className="order-panel__title">
        {t('trading.formTitle')}
      </h2>
      <FeeScheduleNote rules={rules} testId="trading-rules" zeroWhileLoading />
      {token === null ? (
        <LoginPrompt message={t('trading.loginToTrade')} />
      ) : rules === undefined ? null : (
        <OrderForm stock={stock} rules={rules} />
      )}
    </section>
  );
}

/** The form follows every quote tick (its figures and the staleness check use the live price and time). */
function OrderForm({ stock, rules }: { stock: StockInfo; rules: TTradingRules }) {
  const quote = useStock(stock.code, selectQuote).data ?? null;
  return quote === null ? null : <OrderTicket stock={stock} quote={quote} rules={rules} />;
}

function OrderTicket({ stock, quote, rules }: { stock: StockInfo; quote: TQuote; rules: TTradingRules }) {
  const { t } = useTranslation();
  const ticket = useOrderTicket({ stock, quote, rules, dialogs: useTicketDialogs() });
  return (
    <OrderTicketForm
      ticket={ticket}
      variant="full"
      label={t('trading.formTitle')}
      className="order-form"
      footer={
        <a
          className="order-form__link"
          href={`#${ordersUrl()}`}
          onClick={(event) => {
            event.preventDefault();
            navigateTo(ordersUrl());
          }}
        >
          {t('trading.toOrders')} ›
        </a>
      }
    />
  );
}
