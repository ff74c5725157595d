import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './qpay-support';
import { animationsDone, newContext, screenshot, signedIn, startBrowserSuite, visibleText, widths, type BrowserSuite } from './support';

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  // streaming-keys evaluates its alert rules every 2 s here (every minute by default), so the alerts card's journey need not wait a minute.
  suite = await startBrowserSuite('dashboard', { environment: { 'streaming-keys': { ALERT_CHECK_CRON: '*/2 * * * * *', LOW_FREE_SLOTS_THRESHOLD: '1' } } });
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

/** Opens `path` at both widths with the given session, runs `ready`, and saves a screenshot of each. */
async function atBothWidths(name: string, path: string, session: Session | undefined, ready: (page: Page) => Promise<void>) {
  for (const width of [widths.desktop, widths.mobile]) {
    const context = await newContext(browser, width, session);
    const page = await context.newPage();
    await page.goto(`${system.url}${path}`);
    await ready(page);
    await screenshot(page, name);
    await context.close();
  }
}

describe('admin dashboard in a real browser', () => {
  it('sends an anonymous visitor from / to /login', async () => {
    await atBothWidths('login', '/', undefined, async (page) => {
      await page.waitForURL(`${system.url}/login`);
      await visibleText(page, 'Sign in as administrator');
    });
  });

  it('shows 404 Page Not Found for an unknown path', async () => {
    await atBothWidths('not-found', '/no-such-page', undefined, async (page) => {
      await visibleText(page, '404 Page Not Found');
    });
  });

  it('signs an admin in through the OIDC simulator and shows the overview stats', async () => {
    const { context, page } = await signedIn(browser, system.url);
    const adminSession = await context.storageState();

    const prices = (await (await page.request.get(`${system.url}/api/prices`)).json()) as { count: number };
    const statCards = page.getByTestId('stat-cards');
    await expect
      .poll(() => statCards.textContent(), { timeout: 15_000 })
      .toMatch(new RegExp(`^API StatusOnline100% uptimeTotal Requests[\\d,]+\\+12\\.5%Products Synced${prices.count}From Google SheetsAvg Response\\d+msFast$`));
    expect(prices.count).toBeGreaterThan(0);
    expect(await page.getByTestId('runtime-version').textContent()).toBe(`Node.js ${process.version}`);
    await context.close();

    await atBothWidths('overview', '/', adminSession, async (p) => {
      await visibleText(p, 'Online');
      await visibleText(p, '99.9%');
      // The chart's code loads after the stat cards have their data.
      await p.locator('.recharts-bar-rectangle').first().waitFor();
    });
  });

  it('shows a firing alert on the overview (Hulu sold with no free key slot), and drops it once a key is added', async () => {
    const { context, page } = await signedIn(browser, system.url);
    const api = adminApi(page, system.url);
    const card = page.getByTestId('alerts-card');
    const hulu = card.locator('[data-alert="streaming-keys/low-free-slots/HLU"]');
    await page.goto(`${system.url}/`);
    await card.getByText('Alerts', { exact: true }).waitFor();
    expect(await hulu.count()).toBe(0);
    await api.post('/api/streaming/pricing', { service: 'HLU', serviceName: 'Hulu', duration: 1, price: 20_000 });
    // The card polls every 30 s; once the rule has fired, a reload shows it at once.
    const alertsNow = async (status: string) => (await api.get<{ data: { rule: string; key: string }[] }>(`/api/admin/alerts?status=${status}`)).data.filter((alert) => alert.rule === 'low-free-slots' && alert.key === 'HLU');
    await expect.poll(async () => (await alertsNow('firing')).length, { timeout: 20_000, interval: 1_000 }).toBe(1);
    await page.reload();
    await hulu.waitFor();
    expect(await hulu.textContent()).toMatch(/^WarningFew free key slotsHulu has 0 free key slots \(below 1\): add keys before the next salestreaming-keys · firing since .+$/);
    await screenshot(page, 'overview-alert');
    await api.post('/api/streaming-keys', { service: 'HLU', email: 'hulu.alerts@example.mn', months: 1 });
    await expect.poll(async () => (await alertsNow('resolved')).length, { timeout: 20_000, interval: 1_000 }).toBe(1);
    expect(await alertsNow('firing')).toEqual([]);
    await page.reload();
    await card.getByText('Alerts', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await hulu.count()).toBe(0);
    await context.close();
  });

  it('edits a price in the sheet; the toast names the shop outcome and the value survives a reload', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    const firstRow = page.getByTestId('price-table').locator('tbody tr').first();
    await firstRow.waitFor();
    const product = await firstRow.getAttribute('data-product');
    const row = page.locator(`tr[data-product="${product}"]`);
    const newPrice = String(10_000 + Math.floor(Math.random() * 80_000));
    // Shown as tugriks in English: '₮45,678'.
    const shownPrice = `₮${Number(newPrice).toLocaleString('en')}`;

    await row.getByRole('button', { name: 'Edit' }).click();
    await row.locator('input[name="regularPrice"]').fill(newPrice);
    await screenshot(page, 'sheets-editing');
    await row.getByRole('button', { name: 'Update' }).click();
    // The first row is not mapped to a shop product in a fresh system (web/e2e/woocommerce.test.ts maps and syncs).
    await visibleText(page, 'Data Updated • WooCommerce not mapped');
    await row.getByRole('button', { name: 'Edit' }).waitFor();

    await page.reload();
    await row.getByRole('cell', { name: shownPrice, exact: true }).waitFor();
    const adminSession = await context.storageState();
    await context.close();

    await atBothWidths('sheets', '/?section=sheets', adminSession, async (p) => {
      await p.getByRole('cell', { name: shownPrice, exact: true }).waitFor();
      await visibleText(p, 'Connected');
    });
  });

  it('keeps the desktop sidebar as tall as the page and in view while the page scrolls', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    await page.getByTestId('price-table').locator('tbody tr').first().waitFor();
    await page.mouse.wheel(0, 2_000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const layout = await page.evaluate(() => ({
      column: document.querySelector('aside')!.getBoundingClientRect().height,
      page: document.documentElement.scrollHeight,
      nav: document.querySelector('aside nav')!.getBoundingClientRect(),
    }));
    expect(layout.column).toBe(layout.page);
    expect({ top: layout.nav.top, bottom: layout.nav.bottom }).toEqual({ top: 0, bottom: 900 });
    await context.close();
  });

  it('clears the price cache from the sheets section', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    const clearCache = page.getByRole('button', { name: 'Clear Cache' });
    await clearCache.waitFor();
    await clearCache.click();
    await visibleText(page, 'Cache Cleared');
    await visibleText(page, 'Fresh data loaded from Google Sheets');
    await context.close();
  });

  it('switches sections from an integration page, shows config and docs', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/ai-admin' });
    await page.getByTestId('ai-status').getByTestId('ai-configured').waitFor();
    await page.getByRole('button', { name: 'Configuration', exact: true }).click();
    await page.waitForURL(`${system.url}/?section=config`);
    await page.getByTestId('config-groups').getByText('Configured', { exact: true }).first().waitFor();
    const adminSession = await context.storageState();
    await context.close();

    await atBothWidths('config', '/?section=config', adminSession, async (p) => {
      await p.getByTestId('config-groups').getByText('Configured', { exact: true }).first().waitFor();
    });
    await atBothWidths('docs', '/?section=docs', adminSession, async (p) => {
      await visibleText(p, '1. Start the system');
      expect(await p.getByTestId('docs-links').locator('a').count()).toBe(4);
    });
  });

  it('opens the navigation drawer at 390 px and navigates from it', async () => {
    const { context, page } = await signedIn(browser, system.url, { width: widths.mobile });
    await visibleText(page, 'Online');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByTestId('mobile-drawer');
    await drawer.getByText('Server Running').waitFor();
    await animationsDone(drawer);
    await screenshot(page, 'drawer', false);
    await drawer.getByRole('button', { name: 'Documentation' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await visibleText(page, '1. Start the system');
    await context.close();
  });

  it('shows Access Denied to a signed-in non-admin', async () => {
    const { context, page } = await signedIn(browser, system.url, { as: 'user' });
    const denied = page.getByTestId('access-denied');
    await denied.waitFor();
    expect(await denied.textContent()).toContain(
      "Access DeniedYou don't have permission to access this dashboard. Only authorized administrators can view this content.If you believe this is an error, please contact the system administrator.",
    );
    const userSession = await context.storageState();
    await context.close();
    await atBothWidths('access-denied', '/', userSession, async (p) => {
      await p.getByTestId('access-denied').waitFor();
    });
  });
});
