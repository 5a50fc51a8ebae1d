// @vitest-environment happy-dom
import type { TBanner } from '@kabuto/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BannerCarousel } from './home-banners';

const banner = (id: number): TBanner => ({
  id,
  title: `Banner ${String(id)}`,
  alt: `Picture ${String(id)}`,
  link: '/pages/index/index',
  locale: 'en',
  image_url: `/api/banners/${String(id)}/image`,
});
const ITEMS = [banner(1), banner(2), banner(3)];
const WIDTH = 390;

/** The row as a browser lays it out: each slide the row's width, scrollTo jumping to where it was asked. */
function layOut(row: HTMLElement): ReturnType<typeof vi.fn> {
  Object.defineProperty(row, 'clientWidth', { configurable: true, value: WIDTH });
  const scrollTo = vi.fn((options: ScrollToOptions) => {
    row.scrollLeft = options.left ?? 0;
    fireEvent.scroll(row);
  });
  row.scrollTo = scrollTo as unknown as typeof row.scrollTo;
  return scrollTo;
}

const dots = () => screen.getByTestId('home-banners-indicator').querySelectorAll('span');
const activeDot = () =>
  Array.from(dots()).findIndex((d) => d.classList.contains('home-banners__dot--active'));

describe('the home page banners carousel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('moves to the next slide every five seconds and back to the first after the last', () => {
    render(<BannerCarousel items={ITEMS} autoplay />);
    const scrollTo = layOut(screen.getByTestId('home-banners-track'));
    expect(activeDot()).toBe(0);
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(scrollTo).toHaveBeenLastCalledWith({ left: WIDTH, behavior: 'smooth' });
    expect(activeDot()).toBe(1);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(scrollTo).toHaveBeenLastCalledWith({ left: 0, behavior: 'smooth' });
    expect(activeDot()).toBe(0);
  });

  it('holds still while a link in it has the focus, and for five seconds after a touch', () => {
    render(<BannerCarousel items={ITEMS} autoplay />);
    const row = screen.getByTestId('home-banners-track');
    const scrollTo = layOut(row);
    fireEvent.focusIn(screen.getAllByTestId('home-banner')[0] as HTMLElement);
    act(() => {
      vi.advanceTimersByTime(15_000);
    });
    expect(scrollTo).not.toHaveBeenCalled();
    fireEvent.focusOut(screen.getAllByTestId('home-banner')[0] as HTMLElement);
    // a touch a second before the next beat (at 20 s): that beat holds, the one after moves
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    fireEvent.pointerDown(row);
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('follows a swipe with its indicator', () => {
    render(<BannerCarousel items={ITEMS} autoplay={false} />);
    const row = screen.getByTestId('home-banners-track');
    layOut(row);
    row.scrollLeft = 2 * WIDTH;
    fireEvent.scroll(row);
    expect(activeDot()).toBe(2);
  });

  it('never moves by itself without autoplay (reduced motion), and shows no indicator for one slide', () => {
    const { unmount } = render(<BannerCarousel items={ITEMS} autoplay={false} />);
    const scrollTo = layOut(screen.getByTestId('home-banners-track'));
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(scrollTo).not.toHaveBeenCalled();
    unmount();
    render(<BannerCarousel items={[banner(1)]} autoplay={false} />);
    expect(screen.queryByTestId('home-banners-indicator')).toBeNull();
    expect(screen.getByRole('link', { name: 'Picture 1 Banner 1' })).toBeTruthy();
  });
});
