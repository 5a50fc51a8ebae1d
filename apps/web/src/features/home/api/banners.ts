import { ZBannerList } from '@kabuto/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { useSession } from '@/shared/session/session';
import { bannersRead } from './home-reads';

export const bannerKeys = {
  list: (lang: string) => ['banners', lang] as const,
};

/** GET /api/banners: the published banners in the reader's language (public; the server caches briefly). */
export function bannersQuery(lang: string) {
  return queryOptions({
    queryKey: bannerKeys.list(lang),
    queryFn: () => api.request({ ...bannersRead(), schema: ZBannerList }),
    staleTime: 30_000,
  });
}

export function useBanners() {
  const lang = useSession((s) => s.lang);
  return useQuery(bannersQuery(lang));
}
