// Debian's Chromium, headless, for the browser tests and the playground's
// tests and measurement: launched by playwright-core with a fresh profile
// (removed on close) and nothing that reaches the network by itself.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here (false when they can): one line saying what to install. */
export const noChromium = existsSync(chromiumPath) ? false : `no Chromium at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM to a Chromium binary`;

/** Launches Chromium with a fresh --user-data-dir; close() also removes the profile. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'loupe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Runs fn(page) on a page opened at url in a fresh Chromium, closed after:
 * fn's value and the page's uncaught errors, in order.
 */
export async function onPage(url, fn) {
  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    return { value: await fn(page), errors };
  } finally {
    await chromium.close();
  }
}
