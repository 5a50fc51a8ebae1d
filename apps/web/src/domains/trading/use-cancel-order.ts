import type { TOrder } from '@kabuto/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { showSuccess } from '@/shared/ui/overlays';
import { createIdempotentAction, sendWithRetry } from './idempotent';
import { cancelOrder, invalidateTrading } from './trading-api';
import { dialog } from '@/shared/ui/overlays';

/** Asks whether to send an attempt again after an unknown outcome (the same key is reused). */
export function useRetryPrompt() {
  const { t } = useTranslation();
  return () =>
    dialog.confirm({
      content: t('trading.retryPrompt'),
      confirmText: t('trading.retry'),
      cancelText: t('common.cancel'),
    });
}

/**
 * Cancels a pending order (or a PTS application) after a confirm prompt, with one Idempotency-Key per
 * cancel attempt. Shared by the orders pages and the PTS screen.
 */
export function useCancelOrder() {
  const { t } = useTranslation();
  const askRetry = useRetryPrompt();
  const action = useMemo(() => createIdempotentAction(cancelOrder), []);
  const [busy, setBusy] = useState<string | null>(null);
  async function cancel(order: Pick<TOrder, 'order_no' | 'name' | 'code'>): Promise<TOrder | null> {
    const ok = await dialog.confirm({
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
