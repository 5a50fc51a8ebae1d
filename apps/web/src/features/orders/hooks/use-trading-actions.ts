import type { TClosePositionRequest, TOrder } from '@kabuto/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { createIdempotentAction, sendWithRetry } from '@/domains/trading/idempotent';
import { closePosition, invalidateTrading } from '@/domains/trading/trading-api';
import { useRetryPrompt } from '@/domains/trading/use-cancel-order';
import { showSuccess } from '@/shared/ui/overlays';

export { useCancelOrder } from '@/domains/trading/use-cancel-order';

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
