import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signedIn, startBrowserSuite, visibleText, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  // The embedded run without the shop's settings: what an operator sees before configuring WooCommerce.
  suite = await startBrowserSuite('no-shop', { environment: { 'shop-sync': { WOOCOMMERCE_URL: '', WOOCOMMERCE_CONSUMER_KEY: '', WOOCOMMERCE_CONSUMER_SECRET: '' } } });
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

describe('the online shop before it is configured', () => {
  it('names the three settings to add, keeps the actions disabled, and a sheet edit says the shop is not configured', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/woocommerce' });
    const alert = page.getByTestId('not-configured');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    for (const setting of ['WOOCOMMERCE_URL', 'WOOCOMMERCE_CONSUMER_KEY', 'WOOCOMMERCE_CONSUMER_SECRET']) expect(text).toContain(setting);
    for (const name of ['Sync Products', 'Auto-Map Products', 'Export to Google Sheets']) expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'woocommerce-not-configured');

    await page.goto(`${system.url}/?section=sheets`);
    const row = page.getByTestId('price-table').locator('tbody tr').nth(1);
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.locator('input[name="regularPrice"]').fill('41000');
    await row.getByRole('button', { name: 'Update' }).click();
    await visibleText(page, 'Data Updated • WooCommerce not configured');
    await context.close();
  });
});
