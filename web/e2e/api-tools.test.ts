import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, sidewaysOverflow, toast } from './qpay-support';
import { screenshot, signedIn, startBrowserSuite, visibleText, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('api-tools');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; tags: string[]; 'x-access': string }>>;
}
interface RequestLog {
  data: { method: string; endpoint: string; statusCode: string }[];
}

/** The request log is written once a second (gateway/src/store/request-log.ts): a request sent is in it after this. */
const LOG_FLUSH_MS = 2_500;

async function openApiTools(width: number = widths.desktop) {
  const signed = await signedIn(browser, system.url, { width, path: '/?section=api-tools' });
  await signed.page.getByRole('heading', { level: 1, name: 'API Tools' }).waitFor();
  await signed.page.getByTestId('catalogue').getByTestId('category').first().waitFor();
  return signed;
}

/** Opens every category of the catalogue (each mounts its operations only while open). */
async function openEveryCategory(page: Page): Promise<void> {
  const triggers = page.getByTestId('category').locator('[data-part="item-trigger"]');
  for (let i = 0; i < (await triggers.count()); i++) {
    if ((await triggers.nth(i).getAttribute('aria-expanded')) !== 'true') await triggers.nth(i).click();
  }
}

const filterBy = (page: Page, text: string) => page.getByLabel('Filter endpoints').fill(text);

/** How many requests of this method the request log holds whose path `matches`. */
async function logged(page: Page, method: string, matches: (endpoint: string) => boolean): Promise<number> {
  const log = await adminApi(page, system.url).get<RequestLog>('/api/monitoring/requests');
  return log.data.filter((entry) => entry.method === method && matches(entry.endpoint)).length;
}

describe('the dashboard api-tools section in a real browser', () => {
  it('lists exactly the operations of /api/openapi.json an admin may call, counted in the header; never a customer-only or internal route', async () => {
    const { context, page } = await openApiTools();
    const document = await adminApi(page, system.url).get<OpenApiDocument>('/api/openapi.json');
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.values(methods).map((operation) => ({ path, ...operation })));
    const callable = operations.filter((operation) => operation['x-access'] === 'admin' || operation['x-access'] === 'public');
    const categories = new Set(callable.map((operation) => operation.tags[0]));
    const customerOnly = operations.filter((operation) => operation['x-access'] === 'customer');
    expect(customerOnly.length).toBeGreaterThan(0);
    expect(callable.length).toBeGreaterThan(100);
    expect(operations.some((operation) => operation.path.startsWith('/internal'))).toBe(false);

    await visibleText(page, `${callable.length} endpoints in ${categories.size} categories`);
    const badges = await page.getByTestId('category-count').allTextContents();
    expect(badges).toHaveLength(categories.size);
    expect(badges.reduce((sum, count) => sum + Number(count), 0)).toBe(callable.length);

    await openEveryCategory(page);
    const listed = await page.getByTestId('endpoint').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-operation-id')));
    expect(listed.sort()).toEqual(callable.map((operation) => operation.operationId).sort());
    for (const operation of customerOnly) expect(listed).not.toContain(operation.operationId);

    // What the filter finds: the public customer routes (sign-in, session, logout), not the customer-only ones; no internal path at all.
    await filterBy(page, '/api/customer/');
    const found = await page.getByTestId('endpoint-path').allTextContents();
    expect(found.sort()).toEqual(callable.filter((operation) => operation.path.startsWith('/api/customer/')).map((operation) => operation.path).sort());
    expect(found).not.toContain('/api/customer/keys');
    await filterBy(page, '/internal/');
    await page.getByTestId('filter-none').waitFor();
    expect(await page.getByTestId('endpoint').count()).toBe(0);
    await context.close();
  });

  it("shows an operation's parameters and samples; Test on GET /api/prices says 'Status: 200 - Response received'", async () => {
    const { context, page } = await openApiTools();
    await filterBy(page, 'prices');
    const update = page.locator('[data-operation-id="postPricesByProduct"]');
    expect(await update.getByTestId('parameters').textContent()).toContain('productpath · stringrequiredexample: Netflix 1 month');
    expect(await update.textContent()).toContain('"salePrice": "22000"');
    // A stream and a redirect have no Test, and say why.
    await filterBy(page, 'gateway. events');
    expect(await page.locator('[data-operation-id="getAdminRunsGatewayByRunIdEvents"]').getByTestId('untestable').textContent()).toBe('No Test: an event stream, followed on its own page');
    await filterBy(page, 'logout get');
    expect(await page.locator('[data-operation-id="getLogout"]').getByTestId('untestable').textContent()).toBe('No Test: a redirect, for a browser navigation');
    expect(await page.locator('[data-operation-id="getLogout"]').getByRole('button').count()).toBe(0);

    await filterBy(page, '/api/prices');
    await page.getByRole('button', { name: 'Test GET /api/prices', exact: true }).click();
    expect(await toast(page, 'Status: 200')).toBe('Status: 200Response received');
    await context.close();
  });

  it("asks before a write's Test, showing method, path and body; Cancel sends nothing, Send request sends it", async () => {
    const { context, page } = await openApiTools();
    const dialog = page.getByRole('alertdialog');
    const invalidations = () => logged(page, 'POST', (endpoint) => endpoint === '/api/cache/invalidate');
    const invalidationsBefore = await invalidations();
    const pricesBefore = await logged(page, 'POST', (endpoint) => endpoint.startsWith('/api/prices/'));

    await filterBy(page, 'prices');
    await page.getByRole('button', { name: 'Test POST /api/prices/{product}', exact: true }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Send POST /api/prices/Netflix%201%20month?');
    expect(await dialog.getByTestId('confirm-path').textContent()).toBe('/api/prices/Netflix%201%20month');
    expect(JSON.parse((await dialog.getByTestId('confirm-body').textContent()) ?? '')).toEqual({ salePrice: '22000' });
    await screenshot(page, 'api-tools-confirm', false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await filterBy(page, 'cache invalidate');
    await page.getByRole('button', { name: 'Test POST /api/cache/invalidate', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByText('No request body').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.waitForTimeout(LOG_FLUSH_MS);
    expect(await logged(page, 'POST', (endpoint) => endpoint.startsWith('/api/prices/'))).toBe(pricesBefore);
    expect(await invalidations()).toBe(invalidationsBefore);

    // The same check sees a confirmed one: it would have seen a cancelled one that went out.
    await page.getByRole('button', { name: 'Test POST /api/cache/invalidate', exact: true }).click();
    await dialog.getByRole('button', { name: 'Send request' }).click();
    expect(await toast(page, 'Status: 200')).toBe('Status: 200Response received');
    await expect.poll(invalidations, { timeout: 10_000 }).toBe(invalidationsBefore + 1);
    await context.close();
  });

  it('request tester: /api/prices by default, Send off with no path, GET shows 200 and the body; bad JSON and other hosts refused in place', async () => {
    const { context, page } = await openApiTools();
    const tester = page.getByTestId('request-tester');
    const path = tester.getByLabel('Path');
    const send = tester.getByRole('button', { name: 'Send' });
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== new URL(system.url).origin) elsewhere.push(request.url());
    });
    const invalidations = () => logged(page, 'POST', (endpoint) => endpoint === '/api/cache/invalidate');
    const invalidationsBefore = await invalidations();

    expect(await path.inputValue()).toBe('/api/prices');
    expect(await send.isEnabled()).toBe(true);
    await path.fill('');
    expect(await send.isDisabled()).toBe(true);
    await path.fill('   ');
    expect(await send.isDisabled()).toBe(true);

    await path.fill('/api/prices');
    await send.click();
    const result = tester.getByTestId('tester-result');
    await result.waitFor();
    expect(await result.getByTestId('tester-status').textContent()).toBe('200');
    const body = JSON.parse((await result.getByTestId('tester-body').textContent()) ?? '') as { success: boolean; count: number };
    expect(body.success).toBe(true);
    expect(body.count).toBeGreaterThan(0);

    // A failure: 'Request Failed' with an 'Error' status, and what the server said.
    await path.fill('/api/no-such-route');
    await send.click();
    await result.getByText('Request Failed').waitFor();
    expect(await result.getByTestId('tester-status').textContent()).toBe('Error');
    expect(await result.getByTestId('tester-body').textContent()).toMatch(/^404: /);

    // POST with a body that is not JSON: said under the field, nothing sent.
    await tester.getByLabel('Method').selectOption('POST');
    await path.fill('/api/cache/invalidate');
    await tester.getByLabel('Request body (JSON)').fill('{ "all": true,');
    await send.click();
    await tester.getByText('Invalid JSON in request body').waitFor();

    // Another host, however written: refused under the path field, nothing sent.
    await tester.getByLabel('Method').selectOption('GET');
    for (const [url, message] of [
      ['http://example.com/api/prices', 'Enter a path on this server starting with / (such as /api/prices): full URLs are refused'],
      [`${system.url}/api/prices`, 'Enter a path on this server starting with / (such as /api/prices): full URLs are refused'],
      ['//example.com/api/prices', 'Only paths on this server are accepted: //host and other hosts are refused'],
      ['/\\example.com/api/prices', 'Only paths on this server are accepted: //host and other hosts are refused'],
    ]) {
      await path.fill(url);
      await send.click();
      await tester.getByText(message, { exact: true }).waitFor();
    }

    await page.waitForTimeout(LOG_FLUSH_MS);
    expect(await invalidations()).toBe(invalidationsBefore);
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  it('recent activity lists the 10 latest requests: 2xx green, 4xx orange, anything else red', async () => {
    const { context, page } = await openApiTools();
    const rows = page.getByTestId('recent-activity').getByTestId('activity-row');
    await rows.first().waitFor();
    // 404s and 302s (an anonymous sign-in start, so the admin's session is left alone), shown by the panel's next poll (every 10 s).
    for (let i = 0; i < 3; i++) {
      await page.request.get(`${system.url}/api/no-such-thing-${i}`);
      await fetch(`${system.url}/api/login`, { redirect: 'manual' });
    }
    const read = () =>
      rows.evaluateAll((list) =>
        list.map((row) => {
          const badge = row.querySelector('[data-testid="activity-status"]') as HTMLElement;
          const cells = Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent ?? '');
          return { status: badge.textContent ?? '', tone: badge.dataset.tone ?? '', colour: getComputedStyle(badge).color, cells };
        }),
      );
    await expect
      .poll(async () => {
        const now = await read();
        return { rows: now.length, tones: new Set(now.map((row) => row.tone)).size };
      }, { timeout: 30_000, interval: 1_000 })
      .toEqual({ rows: 10, tones: 3 });
    const shown = await read();
    const toneOf = (code: string) => (/^2\d\d$/.test(code) ? 'good' : /^4\d\d$/.test(code) ? 'warning' : 'destructive');
    for (const row of shown) {
      expect(row.tone, row.cells.join(' | ')).toBe(toneOf(row.status));
      // method, endpoint, status, response time, timestamp
      expect(row.cells).toHaveLength(5);
      expect(row.cells[1]).toMatch(/^\/api/);
      expect(row.cells[3]).toMatch(/^\d+ms$/);
    }
    expect(new Set(shown.map((row) => row.tone))).toEqual(new Set(['good', 'warning', 'destructive']));
    // Each tone has its own colour.
    const colours = new Map(shown.map((row) => [row.tone, row.colour]));
    expect(new Set(colours.values()).size).toBe(3);
    await context.close();
  });

  it('works at 1440 px and 390 px', async () => {
    for (const width of [widths.desktop, widths.mobile]) {
      const { context, page } = await openApiTools(width);
      await page.getByTestId('category').filter({ hasText: 'Prices' }).locator('[data-part="item-trigger"]').click();
      await page.locator('[data-operation-id="postPricesByProduct"]').waitFor();
      const tester = page.getByTestId('request-tester');
      await tester.getByRole('button', { name: 'Send' }).click();
      await tester.getByTestId('tester-status').waitFor();
      await expect.poll(() => page.getByTestId('activity-row').count(), { timeout: 15_000 }).toBe(10);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'api-tools');
      await context.close();
    }
  });
});
