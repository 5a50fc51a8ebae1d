import type { TMessage } from '@kabuto/contract';
import { formatParams, type Formatters } from '@/shared/format/params';

export type { Formatters };

type Translate = (key: string, params?: Record<string, string>) => string;

/** A message's params in the reader's format (amounts, instants): the shared formatParams. */
export function messageParams(params: TMessage['params'], fmt: Formatters): Record<string, string> {
  return formatParams(params, fmt);
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
