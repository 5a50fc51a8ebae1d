// Draws the web app's install icons (apps/web/public/icons/*.png) from apps/web/sw/icon.svg with the
// suite's Chromium, so the PNGs can be remade when the drawing changes: node scripts/make-icons.mjs.
// "any" icons: the drawing as it is, on a rounded tile. Maskable icons: the tile's colour to every edge, the
// drawing inside the central 80% circle that every launcher's mask keeps (https://w3c.github.io/manifest/#icon-masks).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const folder = fileURLToPath(new URL('../apps/web/public/icons/', import.meta.url));
const svg = readFileSync(new URL('../apps/web/sw/icon.svg', import.meta.url), 'utf8');
const TILE = '#1a6fc4';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const page = await browser.newPage();
for (const size of [192, 512]) {
  for (const maskable of [false, true]) {
    await page.setViewportSize({ width: size, height: size });
    const inner = maskable ? size * 0.6 : size;
    const offset = (size - inner) / 2;
    await page.setContent(
      `<html><body style="margin:0;background:${maskable ? TILE : 'transparent'}">` +
        `<div style="position:absolute;left:${offset}px;top:${offset}px;width:${inner}px;height:${inner}px">` +
        svg.replace('<svg ', '<svg width="100%" height="100%" ') +
        '</div></body></html>',
    );
    const name = `${folder}icon-${size}${maskable ? '-maskable' : ''}.png`;
    await page.screenshot({ path: name, omitBackground: !maskable });
    console.log(name);
  }
}
await browser.close();
