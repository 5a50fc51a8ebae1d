import { describe, expect, it } from 'vitest';
import { safeWebUrl, webviewTarget } from './webview-url';

describe('safeWebUrl', () => {
  it('accepts http and https', () => {
    expect(safeWebUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeWebUrl('http://example.com')).toBe('http://example.com/');
  });
  it('refuses other schemes, relative and empty addresses', () => {
    for (const raw of ['javascript:alert(1)', 'data:text/html,hi', '/japan1/', '', null, 'ftp://x']) {
      expect(safeWebUrl(raw)).toBeNull();
    }
  });
});

describe('webviewTarget', () => {
  const own = 'https://kabuto.example';
  it('shows the allowed hosts and their subdomains inside, over https only', () => {
    expect(webviewTarget('https://www.fsa.go.jp/receipt/soudansitu/', own)).toEqual({
      kind: 'inside',
      url: 'https://www.fsa.go.jp/receipt/soudansitu/',
    });
    expect(webviewTarget('https://jpx.co.jp/', own).kind).toBe('inside');
    expect(webviewTarget(`${own}/japan1/`, own).kind).toBe('inside');
    expect(webviewTarget('http://www.fsa.go.jp/', own)).toEqual({
      kind: 'outside',
      url: 'http://www.fsa.go.jp/',
      host: 'www.fsa.go.jp',
    });
  });
  it('sends any other host outside, named, including look-alikes of an allowed one', () => {
    for (const [raw, host] of [
      ['https://example.com/a', 'example.com'],
      ['https://fsa.go.jp.evil.example/', 'fsa.go.jp.evil.example'],
      ['https://evilfsa.go.jp/', 'evilfsa.go.jp'],
      ['https://kabuto.example.evil/', 'kabuto.example.evil'],
    ] as const) {
      expect(webviewTarget(raw, own)).toEqual({ kind: 'outside', url: new URL(raw).toString(), host });
    }
  });
  it('refuses what safeWebUrl refuses', () => {
    expect(webviewTarget('javascript:alert(1)', own)).toEqual({ kind: 'invalid' });
    expect(webviewTarget(null, own)).toEqual({ kind: 'invalid' });
  });
});
