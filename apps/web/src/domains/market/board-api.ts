import { ZBoard, type TBoard } from '@kabuto/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/shared/api/client';
import { realtime } from '@/shared/realtime/realtime';

/**
 * The order book (板) of a stock: fetched once from GET /api/market/board, then kept current by the
 * realtime stream (the server sends the book with each tick of the stock while it is watched).
 */
export const boardKey = (code: string) => ['market', 'board', code] as const;

export function boardQuery(code: string) {
  return queryOptions({
    queryKey: boardKey(code),
    queryFn: () => api.request({ path: '/market/board', query: { code }, schema: ZBoard }),
    enabled: code !== '',
    staleTime: Infinity,
  });
}

/** The live book of `code` while mounted (undefined until the first answer). */
export function useLiveBoard(code: string): TBoard | undefined {
  const client = useQueryClient();
  useEffect(() => {
    if (code === '') return;
    const stop = realtime.onBoard((board) => {
      if (board.code !== code) return;
      client.setQueryData<TBoard>(boardKey(code), (old) =>
        old === undefined || board.time >= old.time ? board : old,
      );
    });
    const release = realtime.watchBoard(code);
    return () => {
      stop();
      release();
    };
  }, [client, code]);
  return useQuery(boardQuery(code)).data;
}
