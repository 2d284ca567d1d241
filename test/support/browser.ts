import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Response,
} from 'playwright-core';

/** The machine's Chromium (Debian package); CHROMIUM_PATH overrides it. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
}

/** A fresh browser profile (its own cookies) with one page of the given width. */
export async function openPage(browser: Browser, width = 1280): Promise<BrowserSession> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Saves a full-page screenshot into VIGIL_SCREENSHOT_DIR when it is set, so layouts can be
 * reviewed by eye; does nothing otherwise.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.VIGIL_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
}

/** Whether the page scrolls sideways: a layout that does not fit its viewport. */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  // A string, so the expression runs in the page without DOM types in this project.
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
}

/**
 * Runs `action` (a click that submits a form or follows a link) and waits for the document it
 * leads to, after any redirect; returns that document's response.
 */
export async function navigateBy(page: Page, action: () => Promise<void>): Promise<Response> {
  const arrived = page.waitForResponse(
    (r) =>
      r.request().isNavigationRequest() && r.frame() === page.mainFrame() && r.status() !== 303,
  );
  await action();
  const response = await arrived;
  await page.waitForLoadState('domcontentloaded');
  return response;
}

export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<Response> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  return navigateBy(page, () => page.getByRole('button', { name: 'Sign in' }).click());
}
