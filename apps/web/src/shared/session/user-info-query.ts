import { ZUserInfo, type TUserInfo } from '@kabuto/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { sessionStore, useSession } from './session';

/**
 * GET /api/index/getUserInfo?user_id= (specification §7): on success the answer is stored as the
 * session's userInfo (state and localStorage). Shared because several features show it.
 */
export const userInfoKeys = {
  all: ['userInfo'] as const,
  detail: (userId: number | null) => [...userInfoKeys.all, userId] as const,
};

/** The stored copy is checked against the contract here, the one module that reads it (session-store.ts). */
sessionStore.restoreUserInfo((value) => {
  const parsed = ZUserInfo.safeParse(value);
  return parsed.success ? parsed.data : null;
});

export async function getUserInfo(userId: number | null): Promise<TUserInfo> {
  const info = await api.request({
    path: '/index/getUserInfo',
    query: { user_id: userId ?? undefined },
    schema: ZUserInfo,
  });
  sessionStore.setUserInfo(info);
  return info;
}

export function userInfoQueryOptions(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: userInfoKeys.detail(userId),
    queryFn: () => getUserInfo(userId),
    enabled: token !== null && userId !== null,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });
}

/** The user's info: the stored copy at once, refreshed from the server when logged in. */
export function useUserInfo() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const stored = useSession((s) => s.userInfo);
  const query = useQuery({
    ...userInfoQueryOptions(userId, token),
    placeholderData: stored ?? undefined,
  });
  return { ...query, userInfo: token === null ? null : (query.data ?? stored), loggedIn: token !== null };
}
