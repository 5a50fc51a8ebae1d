import { useSyncExternalStore } from 'react';
import { createSessionStore, memoryStorage, type SessionState, type StorageLike } from './session-store';

function browserStorage(): StorageLike {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // Storage may be blocked (private mode): keep the session in memory.
  }
  return memoryStorage();
}

/** The one session store of the running app, restored from localStorage at start. */
export const sessionStore = createSessionStore(browserStorage());

export function useSession<T>(select: (state: SessionState) => T): T {
  return useSyncExternalStore(sessionStore.subscribe, () => select(sessionStore.getState()));
}
