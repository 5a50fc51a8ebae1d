import { localeOf, numberFormat, ZOrder, type TUserEvent } from '@kabuto/contract';
import { useEffect } from 'react';
import { api } from '@/shared/api/client';
import { queryClient } from '@/shared/api/query-client';
import { formatDateTime } from '@/shared/format/format';
import { formatPriceAuto } from '@/shared/format/price';
import { i18n } from '@/shared/i18n/i18n';
import { subscribeUserEvents } from '@/shared/realtime/realtime';
import { sessionStore, useSession } from '@/shared/session/session';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import { invalidateTrading } from './trading-api';

/** The user events of trading; each one changes orders, positions, the ledger and the account figures. */
export const TRADING_EVENT_KINDS = [
  'order.placed',
  'order.filled',
  'order.cancelled',
  'order.rejected',
  'position.closed',
  // Closes by rule and margin calls: positions, the ledger and the account figures change.
  'position.day_trade_closed',
  'position.forced_close',
  'margin.call',
  'margin.call_met',
] as const;

function isTradingEvent(kind: string): boolean {
  return (TRADING_EVENT_KINDS as readonly string[]).includes(kind);
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** The fill's name, quantity and price: from the event, or from the order when the event is terse. */
async function fillOf(event: TUserEvent) {
  const d = event.data;
  let name = str(d['name']);
  let quantity = int(d['quantity']);
  let price = int(d['fill_price']) ?? int(d['price']);
  const orderNo = str(d['order_no']);
  if ((name === null || quantity === null || price === null) && orderNo !== null) {
    const order = await api
      .request({
        path: '/trade/order',
        query: { order_no: orderNo },
        schema: ZOrder,
        notify: false,
      })
      .catch(() => null);
    name ??= order?.name ?? null;
    quantity ??= order?.quantity ?? null;
    price ??= order?.fill_price ?? null;
  }
  return { name: name ?? str(d['code']) ?? '', quantity: quantity ?? 0, price: price ?? 0 };
}

async function toastFill(event: TUserEvent) {
  const fill = await fillOf(event);
  const locale = localeOf(sessionStore.getState().lang);
  showSuccess(
    i18n.t('trading.filledToast', {
      name: fill.name,
      quantity: numberFormat(locale).format(fill.quantity),
      price: formatPriceAuto(fill.price, locale),
    }),
    2500,
  );
}

/** A margin call: which position, and the deadline (Japan time) to restore the maintenance ratio. */
function toastMarginCall(event: TUserEvent) {
  const d = event.data;
  const locale = localeOf(sessionStore.getState().lang);
  const deadline = str(d['deadline']);
  showToast(
    i18n.t('trading.marginCallToast', {
      name: str(d['name']) ?? str(d['code']) ?? '',
      deadline: deadline === null ? '—' : formatDateTime(deadline, locale),
    }),
    6000,
  );
}

/**
 * While logged in: refreshes the trading queries (orders, positions, ledger, account) on every trading,
 * position and margin event, and each time the events start arriving (after a connection or a login, since
 * what came before is not replayed); toasts fills and warns of margin calls.
 */
export function useTradingEvents(): void {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (token === null) return;
    return subscribeUserEvents(
      (event) => {
        if (!isTradingEvent(event.kind)) return;
        void invalidateTrading(queryClient);
        if (event.kind === 'margin.call') toastMarginCall(event);
        if (event.kind === 'order.filled') {
          toastFill(event).catch(() => {
            // The fill is visible in the refreshed lists even without the toast.
          });
        }
      },
      () => {
        void invalidateTrading(queryClient);
      },
    );
  }, [token]);
}
