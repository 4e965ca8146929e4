/**
 * Debian's Chromium, headless, as the browser tests drive it (playwright-core): no sandbox (root), and
 * none of its background traffic (this machine's network is closed; Chromium would otherwise try
 * Google's hosts at every start). A page's console errors and the hosts it asks are recorded.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { PROJECT_ROOT } from './shared.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The console errors (and uncaught errors) of a page, and every host it sends a request to, as they come. */
export function watched(page: Page): { errors: string[]; hosts: Set<string> } {
  const errors: string[] = [];
  const hosts = new Set<string>();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http')) hosts.add(url.host);
  });
  return { errors, hosts };
}

/** Chromium for a test file: launched before its tests, closed after them. Call the answer for the browser. */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not started: chromiumForFile() launches it before the tests');
    return browser;
  };
}

/** Where a picture the README shows is kept: docs/<name> when asked (UPDATE_SCREENSHOT=1), else beside the run's other output. */
export const screenshotPath = (name: string): string =>
  process.env.UPDATE_SCREENSHOT ? resolve(PROJECT_ROOT, 'docs', name) : join(tmpdir(), `deck-library-${name}`);

/** The page fits its width: no sideways scroll. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return [root.scrollWidth, root.clientWidth];
  });
  expect(scroll).toBeLessThanOrEqual(client);
}
