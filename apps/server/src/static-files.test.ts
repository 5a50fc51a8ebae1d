import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness.js';

/**
 * How the built front ends and the API's answers go over the wire (issue 21): precompressed files sent as
 * they are, hashed assets cached for a year, index.html revalidated, API JSON compressed above 1 KiB.
 */
const dist = mkdtempSync(join(tmpdir(), 'kabuto-dist-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kabuto</title>');
writeFileSync(join(dist, 'assets', 'index-BSs2teJV.js'), script);
writeFileSync(join(dist, 'assets', 'index-BSs2teJV.js.br'), brotliCompressSync(script));
writeFileSync(join(dist, 'assets', 'index-BSs2teJV.js.gz'), gzipSync(script));
writeFileSync(join(dist, 'sw.js'), "self.addEventListener('fetch', () => undefined);");
writeFileSync(join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Kabuto', start_url: '/japan1/' }));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(() => t.close());

describe('the built web app', () => {
  it('sends the brotli copy of a hashed asset to a client that accepts it, cached for a year', async () => {
    const response = await t.app.inject({
      url: '/japan1/assets/index-BSs2teJV.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['vary']).toContain('accept-encoding');
    expect(response.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip copy to a client without brotli, and the file itself to one that accepts neither', async () => {
    const gz = await t.app.inject({
      url: '/japan1/assets/index-BSs2teJV.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({
      url: '/japan1/assets/index-BSs2teJV.js',
      headers: { 'accept-encoding': '' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates index.html on every load, so a new version is seen at once', async () => {
    const response = await t.app.inject({ url: '/japan1/', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<title>Kabuto</title>');
  });
});

describe('the installable app', () => {
  it('revalidates the service worker on every load, so a deployed version is found at once', async () => {
    const response = await t.app.inject({ url: '/japan1/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toContain('javascript');
  });

  it('sends the manifest as application/manifest+json, revalidated', async () => {
    const response = await t.app.inject({ url: '/japan1/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toHaveProperty('start_url', '/japan1/');
  });
});

describe('API answers', () => {
  it('are compressed above 1 KiB when the client accepts it, and left as they are below', async () => {
    const big = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toHaveProperty('openapi');
    const small = await t.app.inject({ url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toHaveProperty('code', 1);
  });
});
