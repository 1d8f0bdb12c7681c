import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

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

/** A page, and the uncaught exceptions and console errors it has had (a test expects none). */
export interface WatchedPage {
  page: Page;
  errors: string[];
}

/** A page in a context of its own, added to `contexts` for the spec to close after its tests. */
export async function openPage(browser: Browser, contexts: BrowserContext[], options: BrowserContextOptions): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, errors };
}

/** Signs in to the merchant dashboard and waits for its first page, the overview. */
export async function dashboardSignIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Balance', level: 2 }).waitFor();
}

/** Signs in to the audit console with an auditor's key and waits for its event log. */
export async function auditConsoleSignIn(page: Page, baseUrl: string, auditorKey: string): Promise<void> {
  await page.goto(`${baseUrl}/audit`);
  await page.getByLabel('Auditor key').fill(auditorKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Event log' }).waitFor();
}
