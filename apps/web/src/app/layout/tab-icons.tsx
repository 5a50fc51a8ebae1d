/** Simple 24 px tab icons drawn with currentColor. */
const common = {
  viewBox: '0 0 24 24',
  width: 24,
  height: 24,
  'aria-hidden': true,
  focusable: false,
} as const;
const stroke = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinejoin: 'round',
  strokeLinecap: 'round',
} as const;

export const TAB_ICONS = {
  home: (
    <svg {...common}>
      <path d="M3 11 12 4l9 7v9h-6v-6H9v6H3z" {...stroke} />
    </svg>
  ),
  market: (
    <svg {...common}>
      <path d="M3 19h18M5 15l4-5 4 3 6-7" {...stroke} />
    </svg>
  ),
  trade: (
    <svg {...common}>
      <rect x="5" y="7" width="14" height="11" rx="3" {...stroke} />
      <path d="M12 3v4M9 12h.01M15 12h.01M9.5 15h5" {...stroke} />
    </svg>
  ),
  news: (
    <svg {...common}>
      <path d="M5 4h11l3 3v13H5z M8 9h8M8 13h8M8 17h5" {...stroke} />
    </svg>
  ),
  user: (
    <svg {...common}>
      <circle cx="12" cy="8" r="4" {...stroke} />
      <path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6" {...stroke} />
    </svg>
  ),
};
