import { describe, expect, it } from 'vitest';
import { plainSummary, renderMarkdown, sanitize } from './sanitize.js';

/** Known XSS vectors (OWASP cheat sheet and friends): none may leave anything that runs. */
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=`javascript:alert(1)`>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<style>@import "javascript:alert(1)";</style>',
  '"><script>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<a href="//evil.example">protocol-relative</a>',
  '<img src="http://tracker.example/a.png">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href=" javascript:alert(1)">x</a>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<blockquote cite="javascript:alert(1)">x</blockquote>',
];

/** What must not appear inside any tag of the output (escaped text is harmless and is not looked at). */
const DANGEROUS_IN_TAG =
  /^<\/?(script|iframe|svg|math|object|embed|form|input|style|meta|link|base|body|details|video|source)\b|\son\w+\s*=|javascript:|vbscript:|data:|expression\(|srcdoc|background=|style=|(href|src)="(?!https:\/\/|http:\/\/|mailto:)/i;

function dangerous(html: string): string[] {
  return (html.match(/<[^>]*>/g) ?? []).filter((tag) => DANGEROUS_IN_TAG.test(tag));
}

describe('sanitize (ADR 0029)', () => {
  it.each(VECTORS)('leaves nothing that runs of %s', (vector) => {
    expect(dangerous(sanitize(vector))).toEqual([]);
    expect(dangerous(renderMarkdown(vector))).toEqual([]);
    expect(dangerous(renderMarkdown(`# Title\n\nText ${vector} more`))).toEqual([]);
  });

  it('checks what it claims: the tag check sees a handler, a script and a relative source', () => {
    expect(dangerous('<img src=x onerror=alert(1)>')).toHaveLength(1);
    expect(dangerous('<script>')).toHaveLength(1);
    expect(dangerous('<img src="`javascript:alert(1)`" />')).toHaveLength(1);
    expect(dangerous('<p>&lt;img src=x onerror=alert(1)&gt;</p>')).toEqual([]);
  });

  it('keeps the safe subset: headings, emphasis, lists, links (opened outside, no referrer), https images', () => {
    const html = renderMarkdown(
      '# 決算\n\n**増収**と*増益*\n\n- 売上\n- 利益\n\n[JPX](https://www.jpx.co.jp/) ![chart](https://img.example/c.png)',
    );
    expect(html).toContain('<h2>決算</h2>');
    expect(html).toContain('<strong>増収</strong>');
    expect(html).toContain('<li>売上</li>');
    expect(html).toContain('href="https://www.jpx.co.jp/"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('<img src="https://img.example/c.png" alt="chart" />');
  });

  it('drops tracking pixels: 1x1 images, zero-sized ones and beacon addresses', () => {
    expect(sanitize('<p>a<img src="https://t.example/x.gif" width="1" height="1"></p>')).toBe('<p>a</p>');
    expect(sanitize('<img src="https://t.example/x.gif" width="0">')).toBe('');
    expect(sanitize('<img src="https://mail.example/open/abc.gif">')).toBe('');
    expect(sanitize('<img src="https://a.example/pixel.gif">')).toBe('');
    expect(sanitize('<img src="https://a.example/photo.jpg" width="600">')).toContain('photo.jpg');
  });

  it('summarises as plain text cut at a word', () => {
    expect(plainSummary('<p>Tom &amp; Jerry <b>win</b></p>')).toBe('Tom & Jerry win');
    const long = plainSummary(`<p>${'word '.repeat(60)}</p>`, 50);
    expect(long.endsWith('…')).toBe(true);
    expect(long.length).toBeLessThanOrEqual(51);
    expect(long).not.toMatch(/wor…$/);
  });
});
