import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { WEBVIEW_HOSTS } from '@kabuto/contract';
import { API_POLICY, HSTS, contentSecurityPolicy } from './transport.js';

/**
 * The transport headers (issue 22, ADR 0032): the strict policy on the front ends' files, a deny-all one on
 * the API, and HSTS only over HTTPS (X-Forwarded-Proto believed only behind a trusted proxy).
 */
const dist = mkdtempSync(join(tmpdir(), 'kabuto-csp-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kabuto</title>');
writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => undefined);');
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'assets', 'page-Ab12Cd.js'), 'export const page = 1;');
writeFileSync(join(dist, 'assets', 'page-Ef34Gh.css'), '.page{color:red}');

let direct: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  direct = await createTestApp({ WEB_DIST: dist, CONSOLE_DIST: dist });
  proxied = await createTestApp({ WEB_DIST: dist, CONSOLE_DIST: dist, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await direct.close();
  await proxied.close();
});

describe('the Content-Security-Policy', () => {
  it('is the strict policy on the web app and the console, with this host as the only socket', async () => {
    for (const url of ['/japan1/', '/console/']) {
      const response = await direct.app.inject({ url, headers: { host: 'kabuto.example:8443' } });
      expect(response.statusCode).toBe(200);
      const policy = response.headers['content-security-policy'];
      expect(policy).toBe(contentSecurityPolicy('kabuto.example:8443'));
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(policy).toContain("frame-ancestors 'self'");
      expect(policy).toContain("connect-src 'self' ws://kabuto.example:8443 wss://kabuto.example:8443;");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('never echoes a Host header that could break out of the policy', () => {
    const policy = contentSecurityPolicy("evil.example; script-src 'unsafe-inline'");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toContain('unsafe-inline;');
    expect(policy.match(/script-src/g)).toHaveLength(1);
  });

  it("frames only this origin and the webview's allow-list", () => {
    const frames = /frame-src ([^;]*)/.exec(contentSecurityPolicy('h'))?.[1]?.split(' ');
    expect(frames).toEqual(["'self'", ...WEBVIEW_HOSTS.flatMap((h) => [`https://${h}`, `https://*.${h}`])]);
  });

  it('is left off the built scripts and stylesheets, which are never a document; nosniff stays', async () => {
    for (const url of ['/japan1/assets/page-Ab12Cd.js', '/console/assets/page-Ef34Gh.css']) {
      const response = await direct.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['referrer-policy']).toBeUndefined();
    }
    // the service worker is a script with a document's powers; a missing asset's answer keeps them all
    for (const url of ['/japan1/sw.js', '/japan1/assets/missing.js']) {
      const response = await direct.app.inject({ url, headers: { host: 'kabuto.example' } });
      expect(response.headers['content-security-policy']).toBeDefined();
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('is deny-all on the API (its answers are data, never a page)', async () => {
    const response = await direct.app.inject({ url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe(API_POLICY);
    const console = await direct.app.inject({ url: '/api/console/me' });
    expect(console.headers['content-security-policy']).toBe(API_POLICY);
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP, nor on a forged X-Forwarded-Proto without a trusted proxy', async () => {
    const plain = await direct.app.inject({ url: '/japan1/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forged = await direct.app.inject({ url: '/japan1/', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when a trusted proxy says the request came over HTTPS', async () => {
    for (const url of ['/japan1/', '/api/health', '/japan1/assets/page-Ab12Cd.js']) {
      const response = await proxied.app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers['strict-transport-security']).toBe(HSTS);
    }
    const http = await proxied.app.inject({ url: '/japan1/', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});
