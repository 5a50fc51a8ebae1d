import type { TClosePositionRequest, TOrder } from '@kabuto/contract';
import { Dialog } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { createIdempotentAction, sendWithRetry } from '@/shared/trading/idempotent';
import { cancelOrder, closePosition, invalidateTrading } from '@/shared/trading/trading-api';
import { showSuccess } from '@/shared/ui/toast';

function useRetryPrompt() {
  const { t } = useTranslation();
  return () =>
    Dialog.confirm({
      content: t('trading.retryPrompt'),
      confirmText: t('trading.retry'),
      cancelText: t('common.cancel'),
    });
}

/** Cancels a pending order after a confirm prompt (one Idempotency-Key per cancel attempt). */
export function useCancelOrder() {
  const { t } = useTranslation();
  const askRetry = useRetryPrompt();
  const action = useMemo(() => createIdempotentAction(cancelOrder), []);
  const [busy, setBusy] = useState<string | null>(null);
  async function cancel(order: Pick<TOrder, 'order_no' | 'name' | 'code'>): Promise<TOrder | null> {
    const ok = await Dialog.confirm({
      title: t('orders.cancelTitle'),
      content: t('orders.cancelConfirm', { orderNo: order.order_no, name: order.name }),
      confirmText: t('orders.cancel'),
      cancelText: t('orders.keep'),
    });
    if (!ok) return null;
    setBusy(order.order_no);
    try {
      const result = await sendWithRetry(action, order.order_no, askRetry);
      if (result !== null) {
        showSuccess(t('orders.cancelled', { orderNo: result.order_no }));
        void invalidateTrading(queryClient);
      }
      return result;
    } catch {
      // The API client has shown the failure (e.g. the order is no longer pending).
      void invalidateTrading(queryClient);
      return null;
    } finally {
      setBusy(null);
    }
  }
  return { cancel, busy };
}

/** Sends a close order (one Idempotency-Key per attempt; the same key on a retry). */
export function useClosePosition() {
  const { t } = useTranslation();
  const askRetry = useRetryPrompt();
  const action = useMemo(() => createIdempotentAction(closePosition), []);
  async function close(body: TClosePositionRequest): Promise<TOrder | null> {
    const result = await sendWithRetry(action, body, askRetry);
    if (result !== null) {
      showSuccess(t('orders.closePlaced', { orderNo: result.order_no }), 2000);
      void invalidateTrading(queryClient);
    }
    return result;
  }
  return { close };
}
