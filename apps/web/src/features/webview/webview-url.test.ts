import { describe, expect, it } from 'vitest';
import { safeWebUrl } from './webview-url';

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
