import { describe, expect, it, vi } from 'vitest';
import { createNavigator, pathOf } from './navigation';
import { ROUTE_TABLE, PAGE_PATHS, TAB_PATHS } from './routes';

function setup() {
  let clock = 1_000;
  const navigate = vi.fn();
  const back = vi.fn();
  const log = vi.fn();
  const nav = createNavigator({ routes: ROUTE_TABLE, navigate, back, log, now: () => clock });
  return {
    nav,
    navigate,
    back,
    log,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

describe('navigation rules', () => {
  it('navigates to a non-tab page', () => {
    const { nav, navigate } = setup();
    expect(nav.navigateTo(`${PAGE_PATHS.webview}?url=https%3A%2F%2Fexample.com`)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/subPackages/webview/webview?url=https%3A%2F%2Fexample.com', {});
  });

  it('refuses navigateTo and redirectTo a tab page', () => {
    const { nav, navigate, log } = setup();
    expect(nav.navigateTo(TAB_PATHS.user)?.message).toBe('can not navigateTo a tabbar page');
    expect(nav.redirectTo(TAB_PATHS.home)?.message).toBe('can not redirectTo a tabbar page');
    expect(navigate).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('refuses switchTab to a non-tab page and accepts a tab', () => {
    const { nav, navigate } = setup();
    expect(nav.switchTab(PAGE_PATHS.login)?.message).toBe('can not switch to no-tabBar page');
    expect(nav.switchTab(TAB_PATHS.market)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/pages/market/market', { replace: true });
  });

  it('reports an unknown page', () => {
    const { nav } = setup();
    expect(nav.navigateTo('/subPackages/nope/nope')?.message).toBe(
      'page "/subPackages/nope/nope" is not found',
    );
    expect(nav.switchTab('/pages/nope/nope')?.message).toBe('page "/pages/nope/nope" is not found');
    expect(nav.redirectTo('/x?y=1')?.message).toBe('page "/x?y=1" is not found');
  });

  it('locks a repeated navigateTo to the same URL within 350 ms', () => {
    const { nav, navigate, tick } = setup();
    expect(nav.navigateTo(PAGE_PATHS.settings)).toBeNull();
    tick(100);
    expect(nav.navigateTo(PAGE_PATHS.settings)?.message).toBe('/subPackages/seting/seting locked');
    expect(nav.navigateTo(PAGE_PATHS.changePassword)).toBeNull();
    tick(400);
    expect(nav.navigateTo(PAGE_PATHS.changePassword)).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(3);
  });

  it('redirectTo replaces the entry and navigateBack goes back', () => {
    const { nav, navigate, back } = setup();
    expect(nav.redirectTo('subPackages/login/login?phone=09012345678')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/subPackages/login/login?phone=09012345678', { replace: true });
    nav.navigateBack();
    expect(back).toHaveBeenCalledOnce();
  });

  it('pathOf strips the query', () => {
    expect(pathOf('/a/b?c=d')).toBe('/a/b');
    expect(pathOf('a/b')).toBe('/a/b');
  });
});
