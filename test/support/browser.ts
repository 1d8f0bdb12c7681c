import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(__dirname, '..', 'artifacts');

/** Debian's Chromium, headless, with the flags this sandboxed machine needs (no background network). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  // Playwright's own limits (30 s to launch, to act on a page, to navigate) are deadlines a loaded
  // machine can reach: 0 lets each wait as long as its test may (jest.config.js). `newPage` makes its
  // context through `newContext`, so every page the tests open has no limit of its own.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 0,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(0);
    return context;
  };
  return browser;
}
