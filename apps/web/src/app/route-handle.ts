/** Route metadata: the navigation bar's title (a catalogue key) and whether the page has no back arrow. */
export interface RouteHandle {
  titleKey: string;
  noBack?: boolean;
}
