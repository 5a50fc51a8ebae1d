import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * The HTML readers may receive (ADR 0029): text structure, links and images, nothing that runs. No script,
 * style, iframe, form or event handler; links only http(s) and mailto; images only https and never a
 * tracking pixel (a 1x1 or 0-sized image, or an image whose size is given as tiny). Links open outside
 * without the opener and without a referrer.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h2',
    'h3',
    'h4',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'code',
    'pre',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan'],
    td: ['colspan'],
  },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
  ],
  // An image must be an absolute https address (a relative one would load from us, or be a trick).
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && (!/^https:\/\//i.test(frame.attribs.src ?? '') || isTrackingPixel(frame.attribs)),
  transformTags: {
    // A link keeps its address only when it is absolute http(s) or mailto.
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      const safe = href !== undefined && /^(https?:\/\/|mailto:)/i.test(href.trim());
      return {
        tagName,
        attribs: {
          ...rest,
          ...(safe ? { href: href.trim() } : {}),
          rel: 'noopener noreferrer nofollow',
          target: '_blank',
        },
      };
    },
    h1: 'h2',
  },
};
// `rel` and `target` are added by the transform above, so they must pass the attribute filter afterwards.
OPTIONS.allowedAttributes = {
  ...(OPTIONS.allowedAttributes as object),
  a: ['href', 'title', 'rel', 'target'],
};

function isTrackingPixel(attribs: Record<string, string>): boolean {
  const tiny = (v: string | undefined) => v !== undefined && /^\s*[0-2](px)?\s*$/.test(v);
  if (tiny(attribs.width) || tiny(attribs.height)) return true;
  return /(^|[/?&._-])(pixel|beacon|track(ing)?|open)([/?&._-]|\.gif|$)/i.test(attribs.src ?? '');
}

/** Sanitises HTML from anywhere (an editor, a feed). */
export function sanitize(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** An editor's Markdown (raw HTML in it is sanitised like everything else) as the HTML readers receive. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  return sanitize(html);
}

/** Plain text of sanitised HTML, cut at a word boundary near `max` characters (summaries). */
export function plainSummary(html: string, max = 120): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
