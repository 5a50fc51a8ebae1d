import type { Navigator } from './navigation';

/**
 * The application's navigator. The app layer installs it once the router exists; features and shared
 * code call these functions without knowing the router.
 */
let current: Navigator | null = null;

export function installNavigator(navigator: Navigator): void {
  current = navigator;
}

function navigator(): Navigator {
  if (current === null) throw new Error('navigator is not installed');
  return current;
}

export const navigateTo = (url: string): Error | null => navigator().navigateTo(url);
export const redirectTo = (url: string): Error | null => navigator().redirectTo(url);
export const switchTab = (url: string): Error | null => navigator().switchTab(url);
export const reLaunch = (url: string): Error | null => navigator().reLaunch(url);
export const navigateBack = (): void => {
  navigator().navigateBack();
};
