import type { Locale } from '@kabuto/contract';

/**
 * The "no data" picture. As in the specification the picture depends on the language: the localized
 * text is drawn inside the SVG image, and each language has its own accent shape.
 */
const ACCENT: Record<Locale, string> = {
  ja: '#e8f3ff',
  'zh-Hans': '#fff1e8',
  'zh-Hant': '#fff7e0',
  en: '#eef7ee',
  es: '#fdeef3',
  fr: '#eef0fd',
};

export function NoDataPicture({ locale, text }: { locale: Locale; text: string }) {
  const fontFamily =
    locale === 'ja'
      ? '"Hiragino Sans","Noto Sans JP",sans-serif'
      : locale.startsWith('zh')
        ? '"PingFang SC","Noto Sans CJK SC",sans-serif'
        : 'system-ui,sans-serif';
  return (
    <svg
      viewBox="0 0 200 150"
      width="200"
      height="150"
      role="img"
      aria-label={text}
      lang={locale}
      data-locale={locale}
      xmlns="http://www.w3.org/2000/svg"
    >
      <ellipse cx="100" cy="128" rx="70" ry="8" fill="#f0f2f5" />
      <circle cx="100" cy="62" r="48" fill={ACCENT[locale]} />
      <rect x="70" y="36" width="60" height="50" rx="6" fill="#ffffff" stroke="#b8c4d6" strokeWidth="2" />
      <line x1="80" y1="50" x2="120" y2="50" stroke="#d3dbe6" strokeWidth="3" strokeLinecap="round" />
      <line x1="80" y1="61" x2="112" y2="61" stroke="#d3dbe6" strokeWidth="3" strokeLinecap="round" />
      <line x1="80" y1="72" x2="104" y2="72" stroke="#d3dbe6" strokeWidth="3" strokeLinecap="round" />
      <text x="100" y="146" textAnchor="middle" fontSize="13" fill="#8a96a8" fontFamily={fontFamily}>
        {text}
      </text>
    </svg>
  );
}
