// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleTheme } from './theme';

/**
 * The console follows the operator's motion setting: a modal zooms in by default and is in place at once
 * under `prefers-reduced-motion: reduce`, and a change of the setting is followed without a reload. Either
 * way rc-motion holds the dialog for one step first (its "prepare", where antd sets the zoom's origin);
 * what differs is what follows it, read a few frames later.
 */
function systemMotion(reduce: boolean) {
  const listeners = new Set<() => void>();
  const media = { reduce };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && media.reduce;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    set(next: boolean) {
      media.reduce = next;
      for (const listener of listeners) listener();
    },
  };
}

const dialog = (open: boolean) => (
  <ConsoleTheme locale="en">
    <Modal open={open} title="Approve" footer={null}>
      body
    </Modal>
  </ConsoleTheme>
);

/** A few frames: long past rc-motion's prepare step, well before the zoom's 500 ms deadline. */
const frames = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 60));
  });
const dialogClass = () => screen.getByRole('dialog').className;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the console theme', () => {
  it('zooms a modal in when the system allows motion', async () => {
    systemMotion(false);
    render(dialog(true));
    await frames();
    expect(dialogClass()).toMatch(/ant-zoom-appear-(start|active)/);
  });

  it('opens a modal in place under prefers-reduced-motion, and follows a change of the setting', async () => {
    const motion = systemMotion(true);
    const { rerender } = render(dialog(true));
    await frames();
    expect(dialogClass()).not.toMatch(/ant-zoom/);
    rerender(dialog(false));
    await frames();
    motion.set(false);
    rerender(dialog(true));
    await frames();
    expect(dialogClass()).toMatch(/ant-zoom-enter-(start|active)/);
  });
});
