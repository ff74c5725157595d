import type { EmbeddedSystem } from '@bo/embedded';
import { defaultKeys } from '@bo/sim-woocommerce';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, newContext, openToasts, screenshot, signedIn, startBrowserSuite, visibleText, widths, type BrowserSuite } from './support';

/** A product or a variation as the WooCommerce simulator holds it. */
interface ShopItem {
  id: number;
  parentId: number;
  type: string;
  name: string;
  sku: string;
  regular_price: string;
  sale_price: string;
}
interface Mapping {
  productName: string;
  woocommerceId: number;
  parentId: number | null;
  lastSynced: string | null;
  mappedBy: 'manual' | 'auto';
}
interface SheetRow {
  type: string;
  woocommerceId: string;
  product: string;
  regularPrice: string;
}

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let shopUrl: string;

beforeAll(async () => {
  suite = await startBrowserSuite('woocommerce');
  ({ system, browser } = suite);
  shopUrl = system.simulators.woocommerce!.url;
});
afterAll(() => suite?.stop());

/** The gateway's API with the page's session (and its CSRF token for writes): test set-up, never the thing under test. */
function apiOf(page: Page) {
  const csrf = async () => ((await (await page.request.get(`${system.url}/api/auth/csrf`)).json()) as { token: string }).token;
  const check = async (response: Awaited<ReturnType<Page['request']['get']>>, what: string): Promise<any> => {
    if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
    return response.json();
  };
  return {
    get: async <T>(path: string): Promise<T> => check(await page.request.get(`${system.url}${path}`), `GET ${path}`),
    post: async <T>(path: string, data?: unknown): Promise<T> =>
      check(await page.request.post(`${system.url}${path}`, { data, headers: { 'x-csrf-token': await csrf() } }), `POST ${path}`),
    delete: async (path: string) => check(await page.request.delete(`${system.url}${path}`, { headers: { 'x-csrf-token': await csrf() } }), `DELETE ${path}`),
  };
}

const mappingsOf = async (page: Page) => (await apiOf(page).get<{ data: Mapping[] }>('/api/woocommerce/mappings')).data;
const sheetRowsOf = async (page: Page) => (await apiOf(page).get<{ data: SheetRow[] }>('/api/prices?format=array')).data;

/** The mappings the other journeys start from: auto-map through the API when there are none yet (each test runs alone too). */
async function ensureMapped(page: Page): Promise<Mapping[]> {
  const existing = await mappingsOf(page);
  if (existing.length > 0) return existing;
  await apiOf(page).post('/api/woocommerce/auto-map');
  const mapped = await mappingsOf(page);
  expect(mapped.length).toBeGreaterThan(0);
  return mapped;
}

/** The simulator's catalogue, products and variations alike, as the shop holds it now. */
async function shopItems(): Promise<ShopItem[]> {
  const { products } = (await (await fetch(`${shopUrl}/__sim/products`)).json()) as {
    products: (Omit<ShopItem, 'parentId'> & { variation_details: (Omit<ShopItem, 'parentId' | 'type'> & { parent_id: number })[] })[];
  };
  return products.flatMap(({ variation_details, ...product }) => [
    { ...product, parentId: 0 },
    ...variation_details.map((variation) => ({ ...variation, type: 'variation', parentId: variation.parent_id })),
  ]);
}

const shopItem = async (id: number) => (await shopItems()).find((item) => item.id === id);

/** Changes a price in the shop behind the back-office's back, through the shop's own REST API. */
async function setShopPrice(item: ShopItem, regularPrice: string): Promise<void> {
  const key = defaultKeys().find((k) => k.permission === 'read_write')!;
  const path = item.parentId ? `/wp-json/wc/v3/products/${item.parentId}/variations/${item.id}` : `/wp-json/wc/v3/products/${item.id}`;
  const response = await fetch(`${shopUrl}${path}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Basic ${Buffer.from(`${key.consumer_key}:${key.consumer_secret}`).toString('base64')}` },
    body: JSON.stringify({ regular_price: regularPrice }),
  });
  expect(response.status).toBe(200);
}

async function deleteShopProduct(id: number): Promise<void> {
  const key = defaultKeys().find((k) => k.permission === 'read_write')!;
  const response = await fetch(`${shopUrl}/wp-json/wc/v3/products/${id}?force=true`, {
    method: 'DELETE',
    headers: { Authorization: `Basic ${Buffer.from(`${key.consumer_key}:${key.consumer_secret}`).toString('base64')}` },
  });
  expect(response.status).toBe(200);
}

async function shopFault(rule: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${shopUrl}/__sim/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rule) });
  expect(response.status).toBe(200);
}
const clearShopFaults = () => fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });

const rowOf = (scope: Page | Locator, product: string) => scope.locator(`tr[data-product=${JSON.stringify(product)}]`);

/** (Re)opens the page, so it shows what the set-up changed behind its back. */
async function openShopPage(page: Page): Promise<void> {
  await page.goto(`${system.url}/woocommerce`);
  await page.getByTestId('connected').waitFor({ timeout: 15_000 });
}

/** The page may not scroll sideways at 390 px: wide tables scroll inside their own box. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

describe('the /woocommerce page against the shop simulator', () => {
  it('shows the shop connected with its product count; Auto-Map maps the sheet rows and keeps a manual mapping', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const api = apiOf(page);
    await page.getByRole('heading', { level: 1, name: 'WooCommerce Integration' }).waitFor();
    expect(await page.title()).toBe('WooCommerce Integration · API Dashboard');
    expect(await page.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('link', { name: 'Analytics' }).getAttribute('href')).toBe('/analytics');

    // The count is the shop's products, variations not counted.
    const products = (await shopItems()).filter((item) => item.parentId === 0);
    await openShopPage(page);
    await expect.poll(() => page.getByTestId('shop-product-count').textContent()).toBe(`${products.length} products in the shop`);
    await visibleText(page, 'Connected');
    for (const name of ['Sync Products', 'Auto-Map Products', 'Export to Google Sheets']) {
      expect(await page.getByRole('button', { name }).isEnabled()).toBe(true);
    }

    // The operator mapped one sheet row by hand to another shop product: auto-map must keep it, and say so.
    const rows = (await sheetRowsOf(page)).filter((row) => row.type.trim().toLowerCase() !== 'variable');
    const manualRow = rows[0];
    const other = products.find((item) => item.type === 'simple' && String(item.id) !== manualRow.woocommerceId.trim())!;
    await api.post('/api/woocommerce/mappings', { productName: manualRow.product, woocommerceId: other.id });

    await page.getByRole('button', { name: 'Auto-Map Products' }).click();
    const results = page.getByTestId('auto-map-results');
    await results.waitFor();
    await visibleText(page, 'Auto-Map Completed');
    const table = results.getByTestId('auto-map-table');
    expect(await table.locator('tbody tr').count()).toBe(rows.length);
    const mappedCount = Number(await results.getByTestId('auto-map-mapped').locator('p').last().textContent());
    expect(mappedCount).toBeGreaterThan(0);
    expect(await table.locator('tr[data-outcome="mapped"]').count()).toBe(mappedCount);
    const kept = rowOf(table, manualRow.product);
    expect(await kept.getAttribute('data-outcome')).toBe('kept_manual');
    expect(await kept.textContent()).toContain('Manual mapping kept');
    expect(await results.getByTestId('auto-map-kept').textContent()).toBe('Kept1');

    // The mappings table reloaded: every mapping the service holds is listed, the manual one still pointing where the operator said.
    const mappings = await mappingsOf(page);
    expect(mappings.length).toBeGreaterThanOrEqual(mappedCount + 1);
    await expect.poll(() => page.getByTestId('mappings-table').locator('tbody tr').count()).toBe(mappings.length);
    const manual = rowOf(page.getByTestId('mappings-table'), manualRow.product);
    expect(await manual.textContent()).toContain(String(other.id));
    expect(await manual.textContent()).toContain('Manual');

    // One h1; the cards are h2 and what they hold h3, no level skipped.
    const levels = await page.evaluate(() => [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')].map((h) => Number(h.tagName[1])));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels.filter((level, index) => index > 0 && level > levels[index - 1] + 1)).toEqual([]);
    await context.close();
  });

  it("pushes a price edited in the sheet to the mapped shop product: the toast says synced and the shop has the new price", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    const mappings = await ensureMapped(page);
    const sheet = await sheetRowsOf(page);
    const items = await shopItems();
    // A sheet row mapped to a product or variation that carries its own price (not a variable product's parent).
    const mapping = mappings.find((m) => sheet.some((row) => row.product === m.productName) && items.find((item) => item.id === m.woocommerceId && item.type !== 'variable'));
    expect(mapping, 'a mapped sheet row with a priced shop item').toBeDefined();
    const newPrice = String(10_000 + Math.floor(Math.random() * 80_000));

    const row = rowOf(page, mapping!.productName);
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.locator('input[name="regularPrice"]').fill(newPrice);
    await row.getByRole('button', { name: 'Update' }).click();
    await visibleText(page, 'Data Updated • WooCommerce synced ✓');
    await expect.poll(async () => (await shopItem(mapping!.woocommerceId))?.regular_price, { timeout: 15_000 }).toBe(newPrice);

    // The page's recent pushes say the same.
    await page.goto(`${system.url}/woocommerce`);
    const push = page.getByTestId('pushes-table').locator(`tr[data-product=${JSON.stringify(mapping!.productName)}]`).first();
    await push.waitFor({ timeout: 15_000 });
    await expect.poll(() => push.getAttribute('data-outcome')).toBe('success');
    expect(await push.textContent()).toContain(`₮${Number(newPrice).toLocaleString('en')}`);
    await context.close();
  });

  it("says 'sync failed' when the shop does not answer in time, and the push completes once it does", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/?section=sheets' });
    const mappings = await ensureMapped(page);
    const items = await shopItems();
    const mapping = mappings.find((m) => items.find((item) => item.id === m.woocommerceId && item.type === 'simple'))!;
    await shopFault({ kind: 'html', status: 503, pathPrefix: `/wp-json/wc/v3/products/${mapping.woocommerceId}` });
    try {
      const newPrice = String(10_000 + Math.floor(Math.random() * 80_000));
      const row = rowOf(page, mapping.productName);
      await row.getByRole('button', { name: 'Edit' }).click();
      await row.locator('input[name="regularPrice"]').fill(newPrice);
      await row.getByRole('button', { name: 'Update' }).click();
      await visibleText(page, 'Data Updated • WooCommerce sync failed');
      await clearShopFaults();
      await expect.poll(async () => (await shopItem(mapping.woocommerceId))?.regular_price, { timeout: 30_000 }).toBe(newPrice);
    } finally {
      await clearShopFaults();
      await context.close();
    }
  });

  it("syncs a variable product's variation through Sync: progress while it runs, the counts after, lastSynced filled and the shop at the sheet's price", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const api = apiOf(page);
    const mappings = await ensureMapped(page);
    const sheet = await sheetRowsOf(page);
    const items = await shopItems();
    const variationMapping = mappings.find(
      (m) => m.parentId !== null && items.some((item) => item.id === m.woocommerceId && item.type === 'variation') && sheet.some((row) => row.product === m.productName && /^\d+$/.test(row.regularPrice)),
    );
    expect(variationMapping, 'a sheet row mapped to a variation').toBeDefined();
    const { productName, woocommerceId } = variationMapping!;
    const sheetPrice = sheet.find((row) => row.product === productName)!.regularPrice;

    // A sync pushes what changed since the last sync: a fresh mapping has never been synced.
    if (variationMapping!.lastSynced !== null) {
      await api.delete(`/api/woocommerce/mappings/${encodeURIComponent(productName)}`);
      await api.post('/api/woocommerce/mappings', { productName, woocommerceId });
    }
    // The shop's price drifted; the sync must put the sheet's back.
    const variation = items.find((item) => item.id === woocommerceId)!;
    await setShopPrice(variation, '1');
    const before = (await mappingsOf(page)).find((m) => m.productName === productName)!.lastSynced;

    try {
      await openShopPage(page);
      const mappingRow = rowOf(page.getByTestId('mappings-table'), productName);
      await mappingRow.waitFor();
      // The shop answers the sync's first batch update (a POST) slowly, so the run is seen running.
      await shopFault({ kind: 'slow', method: 'POST', pathPrefix: '/wp-json/wc/v3/products', delayMs: 4_000, times: 1 });
      await page.getByRole('button', { name: 'Sync Products' }).click();
      const progress = page.getByTestId('sync-progress');
      await progress.waitFor({ timeout: 10_000 });
      // Counting comes first; then the bar reads how far the run got.
      await expect.poll(() => progress.textContent({ timeout: 1_000 }), { timeout: 10_000 }).toMatch(/^Processed \d+ of [1-9]\d*\d+%$/);
      await screenshot(page, 'woocommerce-sync-running', false);

      await expect.poll(() => page.getByTestId('sync-run-status').textContent(), { timeout: 30_000 }).toBe('Finished');
      await progress.waitFor({ state: 'detached' });
      const synced = Number(await page.getByTestId('sync-synced').locator('p').last().textContent());
      expect(synced).toBeGreaterThanOrEqual(1);
      expect(await page.getByTestId('sync-counts').textContent()).toMatch(/^Synced\d+Failed\d+Skipped\d+Total\d+$/);

      expect((await shopItem(woocommerceId))?.regular_price).toBe(sheetPrice);
      const after = (await mappingsOf(page)).find((m) => m.productName === productName)!.lastSynced;
      expect(after).not.toBeNull();
      if (before) expect(Date.parse(after!)).toBeGreaterThan(Date.parse(before));
      // The table reloaded with it: the Last Synced cell shows the time ('Nov 23, 2026, 8:05 AM').
      await expect.poll(() => mappingRow.locator('td').nth(2).textContent(), { timeout: 10_000 }).toMatch(/\d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    } finally {
      await clearShopFaults();
    }
    await context.close();
  });

  it('deletes a mapping after the confirm dialog, and adds one through the form once both fields are valid', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const mappings = await ensureMapped(page);
    const target = mappings[mappings.length - 1];
    await openShopPage(page);
    const table = page.getByTestId('mappings-table');
    const row = rowOf(table, target.productName);
    await row.waitFor();

    // Cancel leaves it; Delete in the dialog removes it.
    await row.getByRole('button', { name: `Delete the mapping of ${target.productName}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this mapping?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`"${target.productName}" will no longer update WooCommerce product ${target.woocommerceId}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await mappingsOf(page)).some((m) => m.productName === target.productName)).toBe(true);

    await row.getByRole('button', { name: `Delete the mapping of ${target.productName}` }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await visibleText(page, 'Mapping Deleted');
    await row.waitFor({ state: 'detached' });
    expect((await mappingsOf(page)).some((m) => m.productName === target.productName)).toBe(false);

    // Save stays disabled until the name and a numeric id are both there.
    const form = page.getByTestId('add-mapping');
    const save = form.getByRole('button', { name: 'Save' });
    const name = form.getByLabel('Product name');
    const id = form.getByLabel('WooCommerce product ID');
    expect(await save.isDisabled()).toBe(true);
    await name.fill(target.productName);
    expect(await save.isDisabled()).toBe(true);
    await id.fill('12a');
    expect(await save.isDisabled()).toBe(true);
    await visibleText(page, 'Enter a whole number, such as 102');
    await name.fill('   ');
    await id.fill(String(target.woocommerceId));
    expect(await save.isDisabled()).toBe(true);
    await name.fill(target.productName);
    expect(await save.isEnabled()).toBe(true);

    // An id the shop does not have: the service refuses it, and the toast carries its reason (not the page's default).
    await id.fill('999999');
    await save.click();
    const refused = openToasts(page).filter({ hasText: 'Failed to Add Mapping' });
    await refused.waitFor();
    const reason = (await refused.locator('[data-part="description"]').textContent()) ?? '';
    expect(reason).not.toBe('');
    expect(reason).not.toBe('The mapping could not be saved');
    expect(await name.inputValue()).toBe(target.productName); // the form keeps what was typed

    await id.fill(String(target.woocommerceId));
    await save.click();
    await visibleText(page, 'Mapping Added');
    await row.waitFor();
    expect(await row.textContent()).toContain('Manual');
    expect(await name.inputValue()).toBe('');
    const added = (await mappingsOf(page)).find((m) => m.productName === target.productName);
    expect(added).toMatchObject({ woocommerceId: target.woocommerceId, mappedBy: 'manual' });
    await context.close();
  });

  it("lists a price that drifted in the shop with a Fix that pushes the sheet's price, and a mapped product the shop lost", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const mappings = await ensureMapped(page);
    const sheet = await sheetRowsOf(page);
    const items = await shopItems();
    const priced = mappings.filter(
      (m) => items.some((item) => item.id === m.woocommerceId && item.type !== 'variable') && sheet.some((row) => row.product === m.productName && /^\d+$/.test(row.regularPrice)),
    );
    expect(priced.length, 'two mapped sheet rows with priced shop items').toBeGreaterThanOrEqual(2);
    const drifted = priced[0];
    const sheetPrice = sheet.find((row) => row.product === drifted.productName)!.regularPrice;
    await setShopPrice(items.find((item) => item.id === drifted.woocommerceId)!, '1');
    // The shop loses a simple product someone mapped (a variation would take its parent with it).
    const lost = priced.find((m) => m !== drifted && items.find((item) => item.id === m.woocommerceId)?.type === 'simple');
    expect(lost, 'a second sheet row mapped to a simple product').toBeDefined();
    await deleteShopProduct(lost!.woocommerceId);

    await openShopPage(page);
    const card = page.getByTestId('reconciliation');
    await card.getByRole('button', { name: 'Check' }).click();
    const row = rowOf(card.getByTestId('differences-table'), drifted.productName);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain('₮1');
    const missing = card.getByTestId('missing-in-shop');
    await missing.waitFor();
    expect(await missing.textContent()).toContain(`${lost!.productName} (WooCommerce ${lost!.woocommerceId})`);

    await row.getByRole('button', { name: `Fix the price of ${drifted.productName}` }).click();
    await visibleText(page, 'Price Fixed');
    await row.waitFor({ state: 'detached', timeout: 20_000 }); // the check ran again: no difference left for it
    expect((await shopItem(drifted.woocommerceId))?.regular_price).toBe(sheetPrice);
    await context.close();
  });

  it('shows the failed state with the reason when the shop refuses the keys, and the actions disabled', async () => {
    const { context } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const session = await context.storageState();
    await context.close();
    await shopFault({
      kind: 'status',
      status: 401,
      pathPrefix: '/wp-json/wc/v3',
      body: { code: 'woocommerce_rest_authentication_error', message: 'Consumer secret is invalid.', data: { status: 401 } },
    });
    try {
      for (const width of [widths.desktop, widths.mobile]) {
        const shown = await newContext(browser, width, session);
        const p = await shown.newPage();
        await p.goto(`${system.url}/woocommerce`);
        const alert = p.getByTestId('connection-failed');
        await alert.waitFor({ timeout: 15_000 });
        expect(await alert.getAttribute('role')).toBe('alert');
        const text = (await alert.textContent()) ?? '';
        expect(text.startsWith('Connection Failed')).toBe(true);
        // The server's reason when it gives one, else the product's own text.
        expect(text.slice('Connection Failed'.length)).toMatch(/Consumer secret is invalid|401|Could not connect to WooCommerce\. Please check your credentials\./);
        for (const name of ['Sync Products', 'Auto-Map Products', 'Export to Google Sheets']) {
          expect(await p.getByRole('button', { name }).isDisabled()).toBe(true);
        }
        expect(await p.getByTestId('shop-product-count').count()).toBe(0);
        await screenshot(p, 'woocommerce-failed');
        if (width === widths.mobile) await expectNoSidewaysScroll(p);
        await shown.close();
      }
    } finally {
      await clearShopFaults();
    }
  });

  it('looks right at 1440 and 390 px with every panel filled, in English and in Mongolian', { timeout: 120_000 }, async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    await ensureMapped(page);
    const session = await context.storageState();
    await context.close();
    const orders = ((await (await fetch(`${shopUrl}/__sim/orders`)).json()) as { orders: { id: number; billing: { email: string } }[] }).orders;
    const buyer = orders[0].billing.email;

    const shots: { width: number; language: 'en' | 'mn' }[] = [
      { width: widths.desktop, language: 'en' },
      { width: widths.mobile, language: 'en' },
      { width: widths.desktop, language: 'mn' },
      { width: widths.mobile, language: 'mn' },
    ];
    for (const { width, language } of shots) {
      const shown = await newContext(browser, width, session);
      const p = await shown.newPage();
      await p.addInitScript((code) => localStorage.setItem('bo.language', code), language);
      await p.goto(`${system.url}/woocommerce`);
      await p.getByTestId('connected').waitFor({ timeout: 15_000 });
      const en = language === 'en';

      await p.getByTestId('shop-actions').getByRole('button').nth(1).click(); // Auto-Map
      await p.getByTestId('auto-map-table').waitFor();
      await p.getByTestId('shop-actions').getByRole('button').nth(2).click(); // Export
      await p.getByTestId('export-results').waitFor();
      await p.getByTestId('reconciliation').getByRole('button').click(); // Check
      await p.getByTestId('reconciliation-summary').waitFor({ timeout: 20_000 });
      const lookup = p.getByTestId('order-lookup');
      // Enter submits (a toast may sit over the button at the bottom of a phone's screen).
      await lookup.locator('input[name="contact"]').fill(buyer);
      await lookup.locator('input[name="contact"]').press('Enter');
      await lookup.getByTestId('order').first().waitFor();
      expect(await lookup.getByTestId('order').first().textContent()).toContain(buyer);
      if (en) {
        expect(await p.getByTestId('export-sheet').textContent()).toBe('SheetSheet1');
        await lookup.locator('input[name="orderId"]').fill(String(orders[0].id));
        await lookup.locator('input[name="orderId"]').press('Enter');
        await lookup.getByText(`Order #`).first().waitFor();
        expect(await lookup.locator(`[data-order-id="${orders[0].id}"]`).count()).toBe(1);
      } else {
        await p.getByRole('heading', { level: 1, name: 'WooCommerce холболт' }).waitFor();
      }
      // No toast over the page, and the sticky header and sidebar where a person first sees them.
      await p.mouse.move(0, 0);
      const toasts = p.locator('[data-scope="toast"][data-part="root"]');
      await expect.poll(() => toasts.and(p.locator('[data-state="open"]')).count(), { timeout: 10_000 }).toBe(0);
      for (const toast of await toasts.all()) await animationsDone(toast); // a closed toast fades out, then stays in the page unseen
      await p.evaluate(() => window.scrollTo(0, 0));
      if (width === widths.mobile) await expectNoSidewaysScroll(p);
      await screenshot(p, en ? 'woocommerce' : 'woocommerce-mn');
      await shown.close();
    }
  });
});
