import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, widths } from './support';

// The shared components (src/components) on a page of their own (e2e/components/gallery.tsx), built
// like the app and served as static files: no gateway needed.
let outDir: string;
let server: Server;
let url: string;
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'bo-web-components-'));
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    root: fileURLToPath(new URL('./components/', import.meta.url)),
    base: '/',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2_000 },
    logLevel: 'warn',
  });
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  server = createServer(async (request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    const file = join(outDir, path);
    if (!file.startsWith(outDir) || !(await stat(file).catch(() => null))?.isFile()) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function gallery(): Promise<{ page: Page; log: () => Promise<string[]>; close: () => Promise<void> }> {
  const context = await newContext(browser, widths.desktop);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Delete mapping' }).waitFor();
  return { page, log: () => page.getByTestId('log').locator('li').allTextContents(), close: () => context.close() };
}

describe('shared components', () => {
  it('ConfirmDialog asks first: Cancel and Escape do nothing, the confirm button acts', async () => {
    const { page, log, close } = await gallery();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Netflix 1 month?' });
    await page.getByRole('button', { name: 'Delete mapping' }).click();
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('The mapping is removed from the shop sync.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Delete mapping' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await log()).toEqual(['cancelled', 'cancelled']);

    await page.getByRole('button', { name: 'Delete mapping' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await log()).toEqual(['cancelled', 'cancelled', 'confirmed']);
    await close();
  });

  it('Dialog is named by its title and closes from its footer', async () => {
    const { page, close } = await gallery();
    await page.getByRole('button', { name: 'Show details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Details' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Body text');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    await close();
  });

  it('Form submits on Enter without reloading; FormField labels its control and ties its error to it', async () => {
    const { page, log, close } = await gallery();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const field = page.getByRole('textbox', { name: 'Product name' });
    await field.fill('ab');
    await field.press('Enter');
    await page.getByText('At least 3 characters').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const errorId = await field.getAttribute('aria-errormessage');
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toBe('At least 3 characters');

    await field.fill('Netflix');
    await field.press('Enter');
    await expect.poll(log).toEqual(['submitted Netflix']);
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await close();
  });

  it('DataTable is named by its caption and shows one row per item', async () => {
    const { page, close } = await gallery();
    const table = page.getByRole('table', { name: 'Mappings' });
    expect(await table.locator('thead th').allTextContents()).toEqual(['Product', 'WooCommerce ID']);
    expect(await table.locator('tbody tr').allTextContents()).toEqual(['Netflix 1 month101', 'Нетфликс 1/2?102']);
    await close();
  });

  it("notifyError shows the server's error field, else the default, as an alert toast, one at a time", async () => {
    const { page, close } = await gallery();
    const alerts = page.locator('[data-scope="toast"][data-part="root"][role="alert"]');
    await page.getByRole('button', { name: 'Fail with a server error' }).click();
    await expect.poll(() => alerts.allTextContents()).toEqual([expect.stringMatching(/^Sync FailedWooCommerce answered 401/)]);
    await page.getByRole('button', { name: 'Fail without one' }).click();
    await expect.poll(() => alerts.allTextContents()).toEqual([expect.stringMatching(/^Sync FailedCould not sync/)]);
    await close();
  });

  it('CopyButton puts the value on the clipboard and says so', async () => {
    const { page, close } = await gallery();
    const button = page.getByRole('button', { name: 'Copy product name' });
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Нетфликс 1/2?');
    await close();
  });
});
