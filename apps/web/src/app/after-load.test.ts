// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoad, afterLoadAtFirstUse } from './after-load';

describe('afterLoad', () => {
  it('runs at once when the page has loaded', () => {
    const task = vi.fn();
    afterLoad(task);
    expect(document.readyState).toBe('complete');
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('waits for the load event while the page is loading', () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const task = vi.fn();
    afterLoad(task);
    expect(task).not.toHaveBeenCalled();
    state.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    window.dispatchEvent(new Event('load'));
    expect(task).toHaveBeenCalledTimes(1);
    state.mockRestore();
  });
});

describe('afterLoadAtFirstUse', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at the first touch, once, before the delay', () => {
    const task = vi.fn();
    afterLoadAtFirstUse(task, 5000);
    expect(task).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pointerdown'));
    expect(task).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(10_000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs after the delay when nobody touches the page, once', () => {
    const task = vi.fn();
    afterLoadAtFirstUse(task, 5000);
    vi.advanceTimersByTime(4999);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pointerdown'));
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('counts no touch before the load', () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const task = vi.fn();
    afterLoadAtFirstUse(task, 5000);
    window.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(10_000);
    expect(task).not.toHaveBeenCalled();
    state.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    window.dispatchEvent(new Event('keydown'));
    expect(task).toHaveBeenCalledTimes(1);
    state.mockRestore();
  });
});
