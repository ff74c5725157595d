import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { vi } from 'vitest';
import { startEmbedded, type EmbeddedOptions, type EmbeddedSystem } from '@bo/embedded';

export const widths = { desktop: 1440, mobile: 390 } as const;
export const screenshotDir = fileURLToPath(new URL('../../artifacts/screenshots/', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The local admin account the password tests sign in with (created by createLocalAdmin). */
export const localAdmin = { username: 'e2e-admin', password: 'a long e2e password' } as const;

/** Creates the local admin account with the operator's own command (gateway/src/cli/create-admin.ts), in the embedded run's database. */
export async function createLocalAdmin(databaseUrl: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', localAdmin.username, '--password', localAdmin.password],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
}

/**
 * The production build into web/dist, which the gateway serves. Vite takes NODE_ENV over its mode,
 * and Vitest sets it to 'test', which would ship React's development build: production while building.
 */
export async function buildWebApp(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: fileURLToPath(new URL('..', import.meta.url)), mode: 'production', logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** The newest modification time under `path` (a file or a folder). */
async function newest(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  return Math.max(info.mtimeMs, ...(await Promise.all(entries.map((entry) => newest(`${path}/${entry}`)))));
}

/**
 * The production build (web/dist), made from the code as it is, but not again when it is newer than
 * every source (`make test` or an earlier run has just built it, and two runs side by side must not
 * write it at once). Says whether it built.
 */
export async function buildWebAppIfStale(): Promise<'built' | 'up to date'> {
  const web = fileURLToPath(new URL('..', import.meta.url));
  const built = await stat(`${web}/dist/index.html`).then((info) => info.mtimeMs, () => 0);
  const sources = Math.max(...(await Promise.all(['src', 'index.html', 'vite.config.ts', 'package.json'].map((path) => newest(`${web}/${path}`)))));
  if (built > sources) return 'up to date';
  await buildWebApp();
  return 'built';
}

export interface BrowserSuite {
  system: EmbeddedSystem;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * What every browser suite runs against: the production build of the web app (web/dist, which the
 * gateway serves, built once per run by e2e/global-setup.ts), the whole system embedded on a fresh
 * data folder, and Chromium. `browserArgs` add Chromium flags.
 */
export async function startBrowserSuite(name: string, options: Omit<EmbeddedOptions, 'dataDir' | 'quiet'> & { browserArgs?: string[] } = {}): Promise<BrowserSuite> {
  const { browserArgs, ...embedded } = options;
  const dataDir = await mkdtemp(join(tmpdir(), `bo-web-${name}-`));
  const system = await startEmbedded({ port: 0, ...embedded, dataDir, quiet: true });
  const browser = await launchBrowser(browserArgs);
  return {
    system,
    browser,
    async stop() {
      await browser.close();
      await system.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium; `extraArgs` add flags (e.g. `--host-resolver-rules` to give this machine another name). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) return Promise.reject(new Error(`Chromium is not installed at ${CHROMIUM} (install it: apt-get install -y chromium)`));
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
  });
}

export function newContext(browser: Browser, width: number, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) {
  return browser.newContext({ viewport: { width, height: width === widths.mobile ? 844 : 900 }, storageState });
}

/**
 * Admin sign-in as a person does it: the sign-in button, the OIDC simulator's page (it asks for an
 * e-mail; a consent step, if shown, is confirmed), and back to the app.
 */
export async function signInWithOidc(page: Page, appUrl: string, email: string): Promise<void> {
  await page.goto(`${appUrl}/login`);
  await completeOidcSignIn(page, appUrl, email);
  await page.waitForURL((url) => url.origin === new URL(appUrl).origin && !url.pathname.startsWith('/api/') && url.pathname !== '/login');
}

/** From /login as it is on screen (with its `?next=`): the sign-in button, then the provider's pages until the app is back. */
export async function completeOidcSignIn(page: Page, appUrl: string, email: string): Promise<void> {
  const appOrigin = new URL(appUrl).origin;
  const onApp = (url: URL) => url.origin === appOrigin;
  await page.getByRole('button', { name: 'Sign in as administrator' }).click();
  // To the provider's pages, or (the provider still remembers the user) straight back into the app.
  await page.waitForURL((url) => !onApp(url) || url.pathname !== '/login');
  for (let step = 0; step < 3 && !onApp(new URL(page.url())); step++) {
    const before = page.url();
    const emailField = page.locator('input[type="email"], input[name="email"], input[name="login"]').first();
    if (await emailField.count()) await emailField.fill(email);
    await page.locator('button[type="submit"], input[type="submit"]').first().click();
    await page.waitForURL((url) => url.href !== before);
  }
}

export type Who = 'admin' | 'user';
const emails: Record<Who, string> = { admin: 'admin@example.com', user: 'user@example.com' };

/**
 * A fresh browser context signed in by this test itself (no test borrows another's session, so any
 * one test runs alone and in any order), on the page given (the start page by default).
 */
export async function signedIn(browser: Browser, appUrl: string, options: { as?: Who; width?: number; path?: string } = {}) {
  const context = await newContext(browser, options.width ?? widths.desktop);
  const page = await context.newPage();
  await signInWithOidc(page, appUrl, emails[options.as ?? 'admin']);
  if (options.path && options.path !== '/') await page.goto(`${appUrl}${options.path}`);
  return { context, page };
}

/** Password sign-in on /login as a person does it: both fields, then the submit button. */
export async function signInWithPassword(page: Page, username: string = localAdmin.username, password: string = localAdmin.password): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Saves `{name}-{width}.png`: the whole page, or only the viewport (for an overlay such as the drawer). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${screenshotDir}${name}-${width}.png`, fullPage });
}

/**
 * Waits for the element's CSS animations (a drawer sliding in) to finish, so a screenshot shows
 * where it stops. An animation the page replaces meanwhile rejects `finished` with an AbortError;
 * it has ended all the same, so it counts as done.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation: { finished: Promise<unknown> }) => animation.finished.catch(() => undefined))),
  );
}

/** Open toasts (data-state="open"); a closed one stays in the page until it is removed, marked closed. */
export const openToasts = (page: Page) => page.locator('[data-scope="toast"][data-part="root"][data-state="open"]');

/** The open toast with exactly this title (and, when given, this text in its description): its whole text; then closed. */
export async function readToast(page: Page, title: string, description?: string | RegExp): Promise<string> {
  let shown = openToasts(page).filter({ has: page.locator('[data-part="title"]').getByText(title, { exact: true }) });
  if (description) shown = shown.filter({ hasText: description });
  await shown.first().waitFor({ timeout: 20_000 });
  const text = (await shown.first().textContent()) ?? '';
  await closeToast(shown.first());
  return text;
}

/**
 * Closes an open toast with its close button, at once, so that the next toast (the same title,
 * perhaps) is told apart and nothing is hidden under it. Zag's toast ignores a dismiss that lands
 * while it is updating (its 'visible:updating' state, a frame long; seen once in a loaded CI run),
 * so a click that left it open is made again, as a person would.
 */
export async function closeToast(shown: Locator): Promise<void> {
  await vi.waitFor(
    async () => {
      if ((await shown.count()) === 0) return;
      await shown.locator('[data-part="close-trigger"]').click({ timeout: 5_000 });
      await shown.waitFor({ state: 'detached', timeout: 5_000 });
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** Waits until the text is on screen and returns its element's text. */
export async function visibleText(page: Page, text: string, exact = true): Promise<string> {
  const locator = page.getByText(text, { exact }).first();
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
  return (await locator.textContent()) ?? '';
}

/**
 * Heading levels in document order within `scope` (a CSS selector; the whole page by default):
 * one h1, and no level deeper than one below the one before it. Hidden headings do not count.
 */
export async function headingOutline(page: Page, scope = ''): Promise<{ h1: number; skips: string[] }> {
  return page.evaluate((within) => {
    const selector = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => `${within} ${tag}`.trim()).join(', ');
    const headings = Array.from(document.querySelectorAll(selector)).filter((h) => (h as HTMLElement).offsetParent !== null || h.closest('[data-testid]'));
    let previous = 0;
    const skips: string[] = [];
    for (const heading of headings) {
      const level = Number(heading.tagName[1]);
      if (level > previous + 1) skips.push(`${heading.tagName} "${heading.textContent}" after h${previous}`);
      previous = level;
    }
    return { h1: headings.filter((h) => h.tagName === 'H1').length, skips };
  }, scope);
}
