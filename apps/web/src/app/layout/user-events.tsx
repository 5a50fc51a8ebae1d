import { useTradingEvents } from '@/domains/trading/use-trading-events';
import { useMessageEvents } from '@/shared/messages/messages-api';

/**
 * The signed-in user's live events: fills, margin calls, messages, funds (shell-effects.tsx draws it while
 * there is a session). Its own chunk: a visitor who is not signed in never downloads its code, the trading
 * and funds queries it refreshes included. Each hook refreshes its queries when the events start arriving, so
 * nothing that happened while the chunk loaded is missed.
 */
export default function UserEvents() {
  useTradingEvents();
  useMessageEvents();
  return null;
}
