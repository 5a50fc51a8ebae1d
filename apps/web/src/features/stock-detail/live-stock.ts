import type { TStockDetail } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { stockQuery } from '@/domains/market/market-api';
import { useViewer } from '@/domains/market/viewer';

/** The stock query of `code` for the current viewer, seen through `select`. */
export function useStock<T>(code: string, select: (stock: TStockDetail) => T) {
  const { lang, userId } = useViewer();
  return useQuery({ ...stockQuery({ lang, userId }, code), select });
}
