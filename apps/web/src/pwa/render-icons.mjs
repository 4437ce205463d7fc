/**
 * Renders the install icons in public/icons/ from public/favicon.svg with headless Chromium
 * (no image library in the repository). Run again after the logo changes:
 *   node apps/web/src/pwa/render-icons.mjs
 * - icon-192/512: the logo as it is (rounded square, transparent corners).
 * - maskable-512 and apple-touch-icon (180): full-bleed brand colour with the glyph inside the
 *   central 80% circle, since Android masks and iOS rounds the square themselves.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PUBLIC = fileURLToPath(new URL('../../public/', import.meta.url));
const BRAND = '#00aba9';
const svg = readFileSync(`${PUBLIC}favicon.svg`, 'utf8');
// The glyph alone (the favicon minus its background square), on a 32-unit grid.
const glyph = svg.replace(/<rect[^>]*\/>/, '').replace(/^<svg[^>]*>|<\/svg>$/g, '');

/** The glyph scaled to `share` of the side, centred on the brand colour. */
const fullBleed = (share) => {
  const offset = (32 - 32 * share) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(${offset} ${offset}) scale(${share})">${glyph}</g></svg>`;
};

const icons = [
  { file: 'icon-192.png', size: 192, svg },
  { file: 'icon-512.png', size: 512, svg },
  // The favicon's glyph spans ~60% of its square; 0.8 keeps it inside the maskable safe zone.
  { file: 'maskable-512.png', size: 512, svg: fullBleed(0.8) },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(0.9) },
];

mkdirSync(`${PUBLIC}icons`, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const icon of icons) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const sized = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.locator('svg').screenshot({ path: `${PUBLIC}icons/${icon.file}`, omitBackground: true });
    console.log(`wrote public/icons/${icon.file}`);
  }
} finally {
  await browser.close();
}
