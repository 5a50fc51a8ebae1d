/**
 * Japanese mobile numbers: 070, 080 or 090 followed by eight digits. Accepts the domestic form or the
 * international one (+81 without the leading 0), with spaces, hyphens, brackets or full-width digits.
 * The normalised form is the 11-digit domestic number.
 */
export function normalizeJapaneseMobile(input: string): string | null {
  const compact = input.normalize('NFKC').replace(/[\s\-‐‑–—ー()（）]/g, '');
  const domestic = compact.startsWith('+81')
    ? `0${compact.slice(3).replace(/^0/, '')}`
    : compact.startsWith('0081')
      ? `0${compact.slice(4).replace(/^0/, '')}`
      : compact;
  return /^0[789]0\d{8}$/.test(domestic) ? domestic : null;
}

/** 090-****-5678: what the app shows of a phone number. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)}-****-${phone.slice(-4)}`;
}
