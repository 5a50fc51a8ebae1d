import { sen, type Sen, type TMessage } from '@kabuto/contract';

type Translate = (key: string, params?: Record<string, string>) => string;

/** How amounts and instants are written in the reader's language (the shared format helpers). */
export interface Formatters {
  money: (amount: Sen) => string;
  dateTime: (iso: string) => string;
}

/** Params that are amounts in sen, and params that are instants: shown in the reader's format. */
const MONEY_PARAMS = new Set(['amount', 'price', 'needed', 'available', 'min', 'm']);
const TIME_PARAMS = new Set(['process_after', 'deadline', 'until']);

export function messageParams(params: TMessage['params'], fmt: Formatters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (MONEY_PARAMS.has(key) && typeof value === 'number' && Number.isSafeInteger(value)) {
      out[key] = fmt.money(sen(value));
    } else if (TIME_PARAMS.has(key) && typeof value === 'string' && Number.isFinite(Date.parse(value))) {
      out[key] = fmt.dateTime(value);
    } else if (typeof value === 'string' || typeof value === 'number') {
      out[key] = String(value);
    }
  }
  return out;
}

/**
 * A message as its reader sees it: the contract catalogue's `messageKinds.<kind>` in the reader's language
 * with the params filled in (an unknown kind shows as its name). A reviewer's reason is kept apart: it is
 * shown as written.
 */
export function messageText(message: TMessage, fmt: Formatters, tContract: Translate): string {
  const key = `messageKinds.${message.kind}`;
  const text = tContract(key, messageParams(message.params, fmt));
  return text === key ? message.kind : text;
}

export function messageReason(message: TMessage): string | null {
  const reason = message.params['reason'];
  return typeof reason === 'string' && reason.trim() !== '' ? reason : null;
}
