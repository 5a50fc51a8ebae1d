// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashHistory, parseHash, type HashHistory } from './hash-history';

describe('parseHash: the page and query of an address', () => {
  it('reads the path and the query, without a second hash', () => {
    expect(parseHash('#/pages/a?code=7203')).toEqual({ pathname: '/pages/a', search: '?code=7203' });
    expect(parseHash('#/pages/a?code=7203#chart')).toEqual({ pathname: '/pages/a', search: '?code=7203' });
    expect(parseHash('#/pages/a')).toEqual({ pathname: '/pages/a', search: '' });
  });

  it('opens "/" for an empty hash, and adds the leading slash a hand-typed path lacks', () => {
    expect(parseHash('')).toEqual({ pathname: '/', search: '' });
    expect(parseHash('#')).toEqual({ pathname: '/', search: '' });
    expect(parseHash('#pages/a?')).toEqual({ pathname: '/pages/a', search: '' });
  });
});

describe('createHashHistory', () => {
  let history: HashHistory;
  let changes = 0;
  beforeEach(() => {
    window.history.replaceState(null, '', '#/pages/start');
    history = createHashHistory();
    changes = 0;
    history.listen(() => {
      changes += 1;
    });
  });
  afterEach(() => {
    history.dispose();
  });

  it('starts at the address it is opened on', () => {
    expect(history.location()).toMatchObject({ pathname: '/pages/start', search: '' });
  });

  it('pushes a new entry, or replaces the current one, and tells its listeners', () => {
    const length = window.history.length;
    history.navigate('/pages/next?tab=1');
    expect(window.location.hash).toBe('#/pages/next?tab=1');
    expect(window.history.length).toBe(length + 1);
    expect(history.location()).toMatchObject({ pathname: '/pages/next', search: '?tab=1' });
    history.navigate('/pages/other', { replace: true });
    expect(window.location.hash).toBe('#/pages/other');
    expect(window.history.length).toBe(length + 1);
    expect(changes).toBe(2);
  });

  it('keeps the path for a query alone, and makes a new location for each visit', () => {
    history.navigate('/pages/a');
    history.navigate('?tab=2', { replace: true });
    const first = history.location();
    expect(first).toMatchObject({ pathname: '/pages/a', search: '?tab=2' });
    // the same address again: a new visit, so a page's error is cleared and it draws again
    history.navigate('?tab=2', { replace: true });
    expect(history.location()).toEqual(first);
    expect(history.location()).not.toBe(first);
  });

  it('follows a back step of the browser', async () => {
    history.navigate('/pages/next');
    const back = new Promise((resolve) => {
      window.addEventListener('popstate', resolve, { once: true });
    });
    history.go(-1);
    await back;
    expect(history.location()).toMatchObject({ pathname: '/pages/start' });
    expect(changes).toBe(2);
  });

  it('links to a path, or to a query of the current page', () => {
    expect(history.href('/pages/b?x=1')).toBe('#/pages/b?x=1');
    expect(history.href('?x=1')).toBe('#/pages/start?x=1');
  });

  it('stops listening once disposed', () => {
    history.dispose();
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(changes).toBe(0);
  });
});
