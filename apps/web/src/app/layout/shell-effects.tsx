import { useTradingEvents } from '@/domains/trading/use-trading-events';
import { useMessageEvents } from '@/shared/messages/messages-api';
import { StaleQuotesBanner } from './stale-quotes-banner';

/**
 * What the layout does besides drawing: the logged-in user's live events (fills, margin calls, messages) and
 * the stale-quotes line. It needs the API client, the realtime connection and the contract's schemas, so it
 * is loaded after the first paint (app-layout.tsx loads it lazily), keeping them out of the first load.
 */
export default function ShellEffects() {
  useTradingEvents();
  useMessageEvents();
  return <StaleQuotesBanner />;
}
