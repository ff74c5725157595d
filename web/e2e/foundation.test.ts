import type { EmbeddedSystem } from '@bo/embedded';
import { PRICE_LIST_SPREADSHEET_ID } from '@bo/sim-google-sheets';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeOidcSignIn, createLocalAdmin, headingOutline, localAdmin, newContext, screenshot, signedIn, signInWithPassword, startBrowserSuite, widths, type BrowserSuite,
} from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('foundation');
  ({ system, browser } = suite);
  await createLocalAdmin(system.databaseUrl);
});
afterAll(() => suite?.stop());

/** Every path the app's router went to, recorded in the page from before its first script. */
async function recordRoutes(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { routesSeen: string[] }).routesSeen = seen;
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        seen.push(location.pathname + location.search);
      };
    }
  });
  return () => page.evaluate(() => (window as unknown as { routesSeen: string[] }).routesSeen);
}

/** Ends the browser's session on the server, as an expiry or a logout in another tab would. */
async function endSessionOnServer(page: Page): Promise<void> {
  const { token } = (await (await page.request.get(`${system.url}/api/auth/csrf`)).json()) as { token: string };
  const reply = await page.request.post(`${system.url}/api/admin/logout`, { headers: { 'x-csrf-token': token } });
  expect(reply.status()).toBe(200);
  expect((await page.request.get(`${system.url}/api/auth/user`)).status()).toBe(401);
}

describe('sign-in and sessions', () => {
  it('renders /login at once for an anonymous visitor: one session check, no retry of its 401', async () => {
    const context = await newContext(browser, widths.desktop);
    const page = await context.newPage();
    const checks: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/user') checks.push(response.status());
    });
    await page.goto(`${system.url}/login`);
    // Only the one check is asserted: a loaded machine may take a while to paint, and a retry would show as a second 401.
    await page.getByRole('button', { name: 'Sign in as administrator' }).waitFor({ timeout: 10_000 });
    // A retry would come about a second after the first 401.
    await page.waitForTimeout(1_500);
    expect(checks).toEqual([401]);
    await context.close();
  });

  it('does not pass through /login on a full page load of a signed-in page', async () => {
    const { context, page } = await signedIn(browser, system.url);
    const routesSeen = await recordRoutes(page);
    await page.goto(`${system.url}/?section=sheets`);
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    expect(page.url()).toBe(`${system.url}/?section=sheets`);
    expect((await routesSeen()).filter((path) => path.startsWith('/login'))).toEqual([]);
    await context.close();
  });

  it('sends an expired session to /login and back to the page after a password sign-in', async () => {
    const context = await newContext(browser, widths.desktop);
    const page = await context.newPage();
    await page.goto(`${system.url}/login`);
    await signInWithPassword(page);
    await page.waitForURL(`${system.url}/`);
    await page.goto(`${system.url}/?section=sheets`);
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();

    await endSessionOnServer(page);
    // The next poll (cache status, every 5 s) answers 401.
    await page.waitForURL(`${system.url}/login?next=%2F%3Fsection%3Dsheets`, { timeout: 15_000 });
    await screenshot(page, 'session-expired-login');
    await signInWithPassword(page);
    await page.waitForURL(`${system.url}/?section=sheets`);
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    await context.close();
  });

  it('sends an expired session to /login and back to the page after an OpenID Connect sign-in', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();

    await endSessionOnServer(page);
    await page.waitForURL(`${system.url}/login?next=%2F%3Fsection%3Dsheets`, { timeout: 15_000 });
    await completeOidcSignIn(page, system.url, 'admin@example.com');
    await page.waitForURL(`${system.url}/?section=sheets`);
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    await context.close();
  });

  it('announces a failed password sign-in as an alert', async () => {
    const context = await newContext(browser, widths.desktop);
    const page = await context.newPage();
    await page.goto(`${system.url}/login`);
    await signInWithPassword(page, localAdmin.username, 'not the password at all');
    const alert = page.locator('form').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid username or password');
    await context.close();
  });
});

describe('languages', () => {
  it('switches to Mongolian, keeps the choice after a reload, and formats by locale', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    await page.getByTestId('language-switch').first().getByRole('button', { name: 'Монгол' }).click();
    await page.getByRole('heading', { level: 1, name: 'Google Sheets өгөгдөл' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('mn');
    expect(await page.title()).toBe('Google Sheets өгөгдөл · API хянах самбар');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Google Sheets өгөгдөл' }).waitFor();
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    const count = await page.getByTestId('price-table').locator('tbody tr').count();
    expect(await page.getByTestId('product-count').textContent()).toBe(`${count} бүтээгдэхүүн`);
    // Tugrik amounts in the Mongolian locale's form ('₮ 25,000'), from Intl.
    const priceCells = await page.getByTestId('price-table').locator('tbody tr td:nth-child(6)').allTextContents();
    expect(priceCells.filter((text) => text).every((text) => /^₮\s[\d,]+$/.test(text))).toBe(true);
    expect(await page.getByTestId('last-synced').textContent()).toMatch(/^Сүүлд синк хийсэн: \d{4} оны/);
    await page.getByRole('button', { name: /^Засах: / }).first().waitFor();
    await screenshot(page, 'sheets-mn');

    await page.goto(system.url);
    await page.getByTestId('stat-cards').getByText('Нийт хүсэлт').waitFor();
    // The chart's code loads after the stat cards have their data: the screenshot shows it drawn.
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    await screenshot(page, 'overview-mn');
    await page.getByTestId('language-switch').first().getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard Overview' }).waitFor();
    await context.close();
  });
});

describe('editing a sheet row', () => {
  it('writes the product being edited even when a refetch reorders the rows meanwhile', async () => {
    const sheetUrl = `${system.simulators.sheets.url}/__sim/spreadsheets/${PRICE_LIST_SPREADSHEET_ID}`;
    const original = (await (await fetch(sheetUrl)).json()) as { id: string; title: string; sharedWith: string[]; sheets: { title: string; rows: string[][] }[] };
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    try {
      const table = page.getByTestId('price-table');
      await table.locator('tbody tr').first().waitFor();
      const before = (await page.request.get(`${system.url}/api/prices?format=array`).then((r) => r.json())) as { data: { product: string; regularPrice: string }[] };
      const [edited, other] = before.data;
      const newPrice = String(10_000 + Math.floor(Math.random() * 80_000));

      await page.getByRole('button', { name: `Edit ${edited.product}`, exact: true }).click();
      await table.locator('input[name="regularPrice"]').fill(newPrice);

      // The sheet's rows reversed behind the user's back, then a refetch (Clear Cache) while still editing.
      const [header, ...rows] = original.sheets[0].rows;
      const reordered = { ...original, sheets: [{ ...original.sheets[0], rows: [header, ...[...rows].reverse()] }, ...original.sheets.slice(1)] };
      expect((await fetch(`${system.simulators.sheets.url}/__sim/spreadsheets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(reordered) })).status).toBe(201);
      await page.getByRole('button', { name: 'Clear Cache' }).click();
      await expect.poll(() => table.locator('tbody tr').first().getAttribute('data-product'), { timeout: 15_000 }).not.toBe(edited.product);

      // The draft stays on the product it started with.
      expect(await table.locator(`tr[data-product="${edited.product}"] input[name="regularPrice"]`).inputValue()).toBe(newPrice);
      await page.getByRole('button', { name: /^Update/ }).click();
      await page.getByText(/^Data Updated/).waitFor({ timeout: 15_000 });

      const after = (await page.request.get(`${system.url}/api/prices?format=array`).then((r) => r.json())) as { data: { product: string; regularPrice: string }[] };
      const byName = new Map(after.data.map((row) => [row.product, row]));
      expect(byName.get(edited.product)?.regularPrice).toBe(newPrice);
      expect(byName.get(other.product)).toEqual(before.data[1]);
      expect(after.data.map((row) => row.product).sort()).toEqual(before.data.map((row) => row.product).sort());
    } finally {
      await context.close();
    }
  });
});

describe('accessibility', () => {
  const pages = [
    { path: '/', title: 'Dashboard Overview · API Dashboard', ready: 'stat-cards' },
    { path: '/?section=sheets', title: 'Google Sheets Data · API Dashboard', ready: 'price-table' },
    { path: '/?section=config', title: 'Configuration · API Dashboard', ready: 'config-groups' },
    { path: '/?section=docs', title: 'Documentation · API Dashboard', ready: 'docs-links' },
    { path: '/woocommerce', title: 'WooCommerce Integration · API Dashboard', ready: 'store-connection' },
    { path: '/ai-admin', title: 'AI Chatbot Admin · API Dashboard', ready: 'ai-status' },
    { path: '/no-such-page', title: '404 Page Not Found · API Dashboard', ready: null },
  ];

  it('gives every route its own page title and one h1 with nested headings', async () => {
    const { context, page } = await signedIn(browser, system.url);
    for (const { path, title, ready } of pages) {
      await page.goto(`${system.url}${path}`);
      if (ready) await page.getByTestId(ready).first().waitFor();
      else await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => page.title()).toBe(title);
      expect({ path, ...(await headingOutline(page)) }).toEqual({ path, h1: 1, skips: [] });
    }
    await context.close();

    const anonymous = await newContext(browser, widths.desktop);
    const login = await anonymous.newPage();
    await login.goto(`${system.url}/login`);
    await login.getByRole('button', { name: 'Sign in as administrator' }).waitFor();
    expect(await login.title()).toBe('Administrator Sign In · API Dashboard');
    expect(await headingOutline(login)).toEqual({ h1: 1, skips: [] });
    await anonymous.close();
  });

  it('names each row button after its product', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    const rows = page.getByTestId('price-table').locator('tbody tr');
    await rows.first().waitFor();
    const products = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-product')!));
    for (const product of products) await page.getByRole('button', { name: `Edit ${product}`, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await context.close();
  });
});

describe('toasts and tooltips', () => {
  it('dismisses a toast by a swipe right past 50 px, not by a shorter one, and removes it after 1,000,000 ms', async () => {
    const { context, page } = await signedIn(browser, system.url);
    await page.clock.install();
    await page.goto(`${system.url}/?section=sheets`);
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const toast = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: 'Data Refreshed' });
    await toast.waitFor();
    await page.clock.pauseAt(Date.now() + 1_000); // the toast's own 5 s timer must not end it meanwhile

    const swipe = async (distance: number) => {
      const box = (await toast.boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + 20, y);
      await page.mouse.down();
      await page.mouse.move(box.x + 20 + distance, y, { steps: 5 });
      await page.mouse.up();
    };
    await swipe(40);
    await page.clock.runFor(500);
    expect(await toast.getAttribute('data-state')).toBe('open');

    await swipe(60);
    await page.clock.runFor(500);
    await expect.poll(() => toast.getAttribute('data-state')).toBe('closed');
    await toast.waitFor({ state: 'hidden' }).catch(() => undefined);
    // Jumped over, not ticked through: a thousand seconds of the page's own timers would cost as long in CPU.
    await page.clock.fastForward(998_000);
    expect(await toast.count()).toBe(1); // dismissed, not yet removed
    await page.clock.runFor(2_000);
    await expect.poll(() => toast.count()).toBe(0);
    await context.close();
  });

  it('opens a tooltip after 700 ms, and the next one at once within the 300 ms skip delay', async () => {
    const { context, page } = await signedIn(browser, system.url);
    await page.clock.install();
    await page.goto(`${system.url}/?section=config`);
    const badges = page.getByTestId('simulated-badge');
    await badges.nth(1).waitFor(); // the embedded run has two: the OpenID Connect issuer and the Sheets price list
    await page.clock.pauseAt(Date.now() + 1_000);
    const tooltip = page.locator('[role="tooltip"][data-state="open"]');

    await badges.nth(0).hover();
    await page.clock.runFor(650);
    expect(await tooltip.count()).toBe(0);
    await page.clock.runFor(100);
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toBe('Runs against a local simulator, not the real service');

    // Straight to the next badge: within the skip delay, no wait.
    await badges.nth(1).hover();
    await page.clock.runFor(50);
    await tooltip.waitFor();

    // Away for longer than the skip delay: the full delay again.
    await page.getByRole('heading', { level: 1 }).hover();
    await page.clock.runFor(400);
    await expect.poll(() => tooltip.count()).toBe(0);
    await badges.nth(0).hover();
    await page.clock.runFor(650);
    expect(await tooltip.count()).toBe(0);
    await page.clock.runFor(100);
    await tooltip.waitFor();
    await context.close();
  });
});
