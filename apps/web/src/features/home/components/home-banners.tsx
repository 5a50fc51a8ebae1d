import type { TBanner } from '@kabuto/contract';
import { usePrefersReducedMotion } from '@kabuto/client/reduced-motion';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateTo, switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS, webviewUrl } from '@/shared/navigation/routes';
import { useBanners } from '../api/banners';

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
 * The home page's banners (ADR 0041) in a carousel: autoplay with an indicator, still when the reader
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
      {items.length > 0 && <BannerCarousel items={items} autoplay={!reducedMotion && items.length > 1} />}
    </section>
  );
}

const AUTOPLAY_MS = 5000;

/**
 * The slides side by side in a row that scrolls and snaps to each one (CSS scroll snap): a swipe, a trackpad or
 * a focused link moves it as the browser moves any scrolling row, and no carousel library comes with the home
 * page (antd-mobile's Swiper brought react-spring and use-gesture, 22 KiB gzipped before its largest paint;
 * issue 21). With `autoplay`, the next slide every five seconds, back to the first after the last; never while
 * a pointer is over it, a link in it has the focus, or within five seconds of a touch.
 */
export function BannerCarousel({ items, autoplay }: { items: readonly TBanner[]; autoplay: boolean }) {
  const track = useRef<HTMLDivElement>(null);
  const hold = useRef({ hover: false, focus: false, touchedAt: -Infinity });
  const [current, setCurrent] = useState(0);
  const count = items.length;

  useEffect(() => {
    if (!autoplay) return;
    const timer = setInterval(() => {
      const row = track.current;
      const { hover, focus, touchedAt } = hold.current;
      if (row === null || hover || focus || Date.now() - touchedAt < AUTOPLAY_MS || row.clientWidth === 0)
        return;
      const next = (Math.round(row.scrollLeft / row.clientWidth) + 1) % count;
      row.scrollTo({ left: next * row.clientWidth, behavior: 'smooth' });
    }, AUTOPLAY_MS);
    return () => {
      clearInterval(timer);
    };
  }, [autoplay, count]);

  return (
    <div className="home-banners__carousel">
      <div
        ref={track}
        className="home-banners__track"
        data-testid="home-banners-track"
        onScroll={(event) => {
          const row = event.currentTarget;
          if (row.clientWidth > 0) setCurrent(Math.round(row.scrollLeft / row.clientWidth));
        }}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse') hold.current.hover = true;
        }}
        onPointerLeave={() => {
          hold.current.hover = false;
        }}
        onPointerDown={() => {
          hold.current.touchedAt = Date.now();
        }}
        onFocus={() => {
          hold.current.focus = true;
        }}
        onBlur={() => {
          hold.current.focus = false;
        }}
      >
        {items.map((banner, index) => (
          <div key={banner.id} className="home-banners__item">
            <BannerSlide banner={banner} first={index === 0} />
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="home-banners__indicator" aria-hidden="true" data-testid="home-banners-indicator">
          {items.map((banner, index) => (
            <span
              key={banner.id}
              className={
                index === current ? 'home-banners__dot home-banners__dot--active' : 'home-banners__dot'
              }
            />
          ))}
        </div>
      )}
    </div>
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
