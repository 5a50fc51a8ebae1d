import { rootFontSizeFor } from '@/shared/ui/rem';

export function installRootFontSize(): void {
  const apply = () => {
    const width = document.documentElement.clientWidth || window.innerWidth;
    document.documentElement.style.fontSize = `${rootFontSizeFor(width)}px`;
  };
  apply();
  window.addEventListener('resize', apply);
  window.addEventListener('orientationchange', apply);
}
