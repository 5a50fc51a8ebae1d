import { describe, expect, it } from 'vitest';
import { isBannerLink } from './banners.js';

describe('where a banner may lead (ADR 0041)', () => {
  it('allows in-app routes and https addresses on the webview allow-list', () => {
    for (const link of [
      '/pages/index/index',
      '/subPackages/index/ipo/ipo',
      '/subPackages/details/details?id=12',
      'https://www.fsa.go.jp/receipt/soudansitu/',
      'https://fsa.go.jp',
      'https://www.jpx.co.jp/equities/index.html',
      'https://WWW.JSDA.OR.JP/',
    ])
      expect(isBannerLink(link), link).toBe(true);
  });

  it('refuses everything else', () => {
    for (const link of [
      '',
      '/',
      '/pages/../../etc/passwd',
      '/subPackages//x',
      '//evil.example.com/pages/index/index',
      '/other/route',
      'http://www.fsa.go.jp/',
      'https://evil.example.com/',
      'https://fsa.go.jp.evil.example.com/',
      'https://evilfsa.go.jp/',
      'https://user:pass@www.fsa.go.jp/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:support@example.com',
      '/pages/index/index#<script>',
    ])
      expect(isBannerLink(link), link).toBe(false);
  });
});
