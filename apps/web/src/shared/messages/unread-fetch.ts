import { ZUnreadCount } from '@kabuto/contract';
import type { z } from 'zod';
import { api } from '../api/client';

/** GET /api/messages/unread-count, loaded on demand by unread.ts. */
export function fetchUnreadCount(): Promise<z.output<typeof ZUnreadCount>> {
  return api.request({ path: '/messages/unread-count', schema: ZUnreadCount, notify: false });
}
