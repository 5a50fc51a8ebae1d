import type { TMarketList, TStockDetail, TStockRow } from '@kabuto/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/shared/i18n/i18n';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { showSuccess } from '@/shared/ui/overlays';
import { marketKeys, setWatched } from './market-api';
import { dialog } from '@/shared/ui/overlays';

/** Sets the `watched` flag of a code in every cached list and detail (optimistically, then confirmed). */
function patchWatched(client: QueryClient, code: string, watched: boolean): void {
  const patch = <T extends { code: string; watched: boolean }>(rows: readonly T[]) =>
    rows.some((r) => r.code === code && r.watched !== watched)
      ? rows.map((r) => (r.code === code ? { ...r, watched } : r))
      : undefined;
  client.setQueriesData<TMarketList>({ queryKey: marketKeys.lists() }, (old) => {
    const items = old === undefined ? undefined : patch(old.items);
    return old === undefined || items === undefined ? undefined : { ...old, items };
  });
  client.setQueriesData<TStockDetail>({ queryKey: [...marketKeys.stocks(), code] }, (old) =>
    old === undefined || old.watched === watched ? undefined : { ...old, watched },
  );
  if (!watched) {
    client.setQueriesData<TStockRow[]>({ queryKey: marketKeys.watchlists() }, (old) =>
      old?.some((r) => r.code === code) === true ? old.filter((r) => r.code !== code) : undefined,
    );
  }
}

async function promptLogin(): Promise<void> {
  const ok = await dialog.confirm({
    content: i18n.t('market.watchLogin'),
    confirmText: i18n.t('user.login'),
    cancelText: i18n.t('common.cancel'),
  });
  if (ok) navigateTo(PAGE_PATHS.login);
}

/** Adds a stock to the watchlist or removes it; asks to log in when nobody is. */
export function useWatchToggle() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const token = useSession((s) => s.token);
  const mutation = useMutation({
    mutationFn: (v: { code: string; watched: boolean }) => setWatched(v.code, v.watched),
    onMutate: (v) => {
      patchWatched(client, v.code, v.watched);
    },
    onError: (_error, v) => {
      patchWatched(client, v.code, !v.watched);
    },
    onSuccess: (result) => {
      patchWatched(client, result.code, result.watched);
      showSuccess(t(result.watched ? 'market.watchAdded' : 'market.watchRemoved'));
    },
    onSettled: () => client.invalidateQueries({ queryKey: marketKeys.watchlists() }),
  });
  return {
    toggle: (code: string, watched: boolean) => {
      if (token === null) {
        void promptLogin();
        return;
      }
      mutation.mutate({ code, watched });
    },
    pendingCode: mutation.isPending ? mutation.variables.code : null,
  };
}
