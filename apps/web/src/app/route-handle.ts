/** Route metadata: the navigation bar's title (a catalogue key) and whether the page has no back arrow. */
export interface RouteHandle {
  titleKey: string;
  noBack?: boolean;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).titleKey === 'string';
}
