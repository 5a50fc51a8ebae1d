/**
 * What each long task of a page load was made of (bench:main-thread with PROFILE=1): V8's sampling profile of
 * the page, taken over the load, cut at the long tasks' bounds, with each function's inclusive time inside the
 * task. Built code has short names: read them at their file and column (`yM stock-chart-….js:133083`), or build
 * with source maps.
 */
import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** Starts the sampling profiler (every 200 µs) on the page of `cdp`. */
export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}

/**
 * Stops the profiler and returns, for the `count` longest of `tasks` ([start, duration] in the page's
 * performance.now() ms), the `top` functions by inclusive time within each, as printable lines.
 */
export async function longTaskBreakdown(
  cdp: CDPSession,
  tasks: readonly (readonly [number, number])[],
  count = 4,
  top = 8,
): Promise<string[]> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  // the profile's clock is the browser's monotonic one in µs; performance.now() is ms since the time origin
  await cdp.send('Performance.enable');
  const now = (await cdp.send('Runtime.evaluate', { expression: 'performance.now()' })) as {
    result: { value: number };
  };
  const { metrics } = await cdp.send('Performance.getMetrics');
  const monotonicNow = (metrics.find((m) => m.name === 'Timestamp')?.value ?? 0) * 1e6;
  const origin = monotonicNow - now.result.value * 1000;

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  let clock = profile.startTime;
  const times = profile.samples.map((_, i) => (clock += profile.timeDeltas[i] ?? 0));
  const name = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*\//, '')}:${String(node.callFrame.columnNumber)}`;

  const lines: string[] = [];
  const longest = [...tasks].sort((a, b) => b[1] - a[1]).slice(0, count);
  for (const [start, duration] of longest) {
    const from = origin + start * 1000;
    const to = from + duration * 1000;
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const at = times[i] ?? 0;
      if (at < from || at > to) return;
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const seen = new Set<string>();
      for (let node = byId.get(id); node !== undefined; node = byId.get(parent.get(node.id) ?? -1)) {
        const key = name(node);
        if (seen.has(key) || /^\((root|program|idle)\)/.test(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
      }
    });
    lines.push(`task at ${start.toFixed(0)} ms, ${duration.toFixed(0)} ms:`);
    for (const [key, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      lines.push(`  ${ms.toFixed(1).padStart(6)} ms  ${key}`);
    }
  }
  return lines;
}
