import { useCallback, useSyncExternalStore } from 'react';

/**
 * Which chart indicators are shown (ADR 0024): toggled from the chart's menu and remembered in localStorage
 * (key INDICATORS_KEY), for every stock and period alike. Moving averages and volume are on by default.
 */
export const INDICATOR_IDS = ['ma', 'volume', 'bollinger', 'ichimoku', 'macd', 'rsi'] as const;
export type IndicatorId = (typeof INDICATOR_IDS)[number];
export type IndicatorChoice = Readonly<Record<IndicatorId, boolean>>;

export const DEFAULT_INDICATORS: IndicatorChoice = {
  ma: true,
  volume: true,
  bollinger: false,
  ichimoku: false,
  macd: false,
  rsi: false,
};

export const INDICATORS_KEY = 'kabuto.chart.indicators';

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The stored choice; anything missing or unreadable falls back to the default. */
export function parseIndicators(raw: string | null): IndicatorChoice {
  if (raw === null) return DEFAULT_INDICATORS;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return DEFAULT_INDICATORS;
  }
  if (typeof json !== 'object' || json === null) return DEFAULT_INDICATORS;
  const stored = json as Record<string, unknown>;
  const out: Record<IndicatorId, boolean> = { ...DEFAULT_INDICATORS };
  for (const id of INDICATOR_IDS) {
    const value = stored[id];
    if (typeof value === 'boolean') out[id] = value;
  }
  return out;
}

function storage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked (private mode): the choice lasts for the page's life
  }
}

let current: IndicatorChoice = parseIndicators(storage()?.getItem(INDICATORS_KEY) ?? null);
const listeners = new Set<() => void>();

export function setIndicator(id: IndicatorId, on: boolean): void {
  current = { ...current, [id]: on };
  try {
    storage()?.setItem(INDICATORS_KEY, JSON.stringify(current));
  } catch {
    // a full or blocked storage: keep the choice in memory
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The current choice and the function that changes one indicator. */
export function useIndicators(): [IndicatorChoice, (id: IndicatorId, on: boolean) => void] {
  const choice = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
  const change = useCallback((id: IndicatorId, on: boolean) => {
    setIndicator(id, on);
  }, []);
  return [choice, change];
}
