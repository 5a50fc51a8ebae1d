/** Specification §9: root font size = device width / 23.4375 (375 px base → 16 px), width capped at 960. */
export const MAX_DEVICE_WIDTH = 960;
export const REM_DIVISOR = 23.4375;

export function rootFontSizeFor(viewportWidth: number): number {
  const width = Math.min(Math.max(viewportWidth, 0), MAX_DEVICE_WIDTH);
  return width / REM_DIVISOR;
}
