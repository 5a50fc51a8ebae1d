import type { TBanner } from '@kabuto/contract';
import { Swiper } from 'antd-mobile';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateTo, switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS, webviewUrl } from '@/shared/navigation/routes';
import { useBanners } from '../api/banners';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the reader asked for less motion (followed live). */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', changed);
      return () => {
        query.removeEventListener('change', changed);
      };
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

const TABS: readonly string[] = Object.values(TAB_PATHS);

/** Where a banner leads inside the app: its route, or the webview for an allow-listed address. */
function bannerTarget(link: string): { href: string; open: () => void } {
  if (link.startsWith('/')) {
    const path = link.split('?')[0] ?? link;
    return {
      href: `#${link}`,
      open: () => (TABS.includes(path) ? switchTab(path) : navigateTo(link)),
    };
  }
  const url = webviewUrl(link);
  return { href: `#${url}`, open: () => navigateTo(url) };
}

/**
 * The home page's banners (ADR 0041) in the kit's Swiper: autoplay with an indicator, still when the reader
 * prefers reduced motion; each slide a link named by its title and its picture's alternative text. The slot
 * has a fixed 5:2 shape from the first paint (while the list loads too), and keeps it when no banner is live
 * (a quiet panel that says so) or the list could not be fetched (empty), so nothing below it ever moves
 * (ADR 0038, 2026-11-26 night).
 */
export function HomeBanners() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useBanners();
  const reducedMotion = usePrefersReducedMotion();
  const items = data?.items ?? [];
  return (
    <section
      className="home-banners"
      aria-label={t('home.banners')}
      aria-busy={isPending}
      data-testid="home-banners"
    >
      {!isPending && !isError && items.length === 0 && (
        <p className="home-banners__none" data-testid="home-banners-none">
          {t('home.bannersNone')}
        </p>
      )}
      {items.length > 0 && (
        <Swiper
          autoplay={!reducedMotion && items.length > 1}
          autoplayInterval={5000}
          loop={items.length > 1}
          indicatorProps={{ className: 'home-banners__indicator' }}
        >
          {items.map((banner, index) => (
            <Swiper.Item key={banner.id}>
              <BannerSlide banner={banner} first={index === 0} />
            </Swiper.Item>
          ))}
        </Swiper>
      )}
    </section>
  );
}

/** `first`: the slide shown on arrival, usually the page's largest picture, so fetched ahead of the others. */
function BannerSlide({ banner, first }: { banner: TBanner; first: boolean }) {
  const target = bannerTarget(banner.link);
  return (
    <a
      className="home-banners__slide"
      href={target.href}
      data-testid="home-banner"
      onClick={(event) => {
        event.preventDefault();
        target.open();
      }}
    >
      <img
        className="home-banners__image"
        src={banner.image_url}
        alt={banner.alt}
        width={750}
        height={300}
        fetchPriority={first ? 'high' : 'low'}
        loading={first ? 'eager' : 'lazy'}
        draggable={false}
      />
      <span className="home-banners__title" lang={banner.locale}>
        {banner.title}
      </span>
    </a>
  );
}
