import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeRunsBackend } from './background-work-support';
import { animationsDone, newContext, openToasts, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('background-work');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

const SECTION = '/?section=background-work';

/** The gateway's API with the page's session (and its CSRF token for writes): test set-up, never the thing under test. */
function apiOf(page: Page) {
  const csrf = async () => ((await (await page.request.get(`${system.url}/api/auth/csrf`)).json()) as { token: string }).token;
  return {
    get: async <T>(path: string): Promise<T> => {
      const response = await page.request.get(`${system.url}${path}`);
      if (!response.ok()) throw new Error(`GET ${path} answered ${response.status()}: ${await response.text()}`);
      return (await response.json()) as T;
    },
    post: async <T>(path: string, data?: unknown): Promise<T> => {
      const response = await page.request.post(`${system.url}${path}`, { data, headers: { 'x-csrf-token': await csrf() } });
      if (!response.ok()) throw new Error(`POST ${path} answered ${response.status()}: ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

const openToast = (page: Page, title: string) => openToasts(page).filter({ hasText: title });
const rowOf = (page: Page, id: string) => page.locator(`tr[data-run-id=${JSON.stringify(id)}]`);
const statusOf = (scope: Locator) => scope.getByTestId('run-status').first().getAttribute('data-status');

/** The page may not scroll sideways at 390 px: the tables scroll inside their own box. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

const shopUrl = () => system.simulators.woocommerce!.url;
const clearShopFaults = () => fetch(`${shopUrl()}/__sim/faults`, { method: 'DELETE' });

/** The WooCommerce sync runs listed now (a new one is told from these by its id). */
async function syncRunIds(page: Page): Promise<Set<string>> {
  const listed = await apiOf(page).get<{ data: { id: string }[] }>('/api/admin/runs?service=shop-sync&kind=woocommerce-sync&limit=200');
  return new Set(listed.data.map((run) => run.id));
}

/**
 * Presses Sync Products on /woocommerce as a person does (mapping the sheet first when nothing is
 * mapped), with the shop's fault set once the page shows it connected, then opens Background work
 * from the sidebar. The press's own answer comes when the run ends; nothing here waits for it.
 */
async function startSyncFromShopPage(page: Page, fault: Record<string, unknown>): Promise<void> {
  const api = apiOf(page);
  if ((await api.get<{ data: unknown[] }>('/api/woocommerce/mappings')).data.length === 0) await api.post('/api/woocommerce/auto-map');
  await clearShopFaults();
  await page.goto(`${system.url}/woocommerce`);
  await page.getByTestId('connected').waitFor({ timeout: 15_000 });
  const set = await fetch(`${shopUrl()}/__sim/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fault) });
  expect(set.status).toBe(200);
  await page.getByRole('button', { name: 'Sync Products' }).click();
  await page.locator('nav [data-section="background-work"]').click();
  await page.waitForURL(`${system.url}${SECTION}`);
}

/** The newest sync row once it is one the list did not hold before. */
async function newSyncRow(page: Page, before: Set<string>): Promise<Locator> {
  const first = page.locator('tr[data-run-id^="shop-sync."]').first();
  await expect.poll(async () => ((await first.count()) ? !before.has((await first.getAttribute('data-run-id'))!) : false), { timeout: 15_000 }).toBe(true);
  return rowOf(page, (await first.getAttribute('data-run-id'))!);
}

/** Waits until the runs card has answered one way or the other: a table, the empty state, or an error. */
async function runsCardSettled(page: Page): Promise<'table' | 'empty' | 'error'> {
  const card = page.getByTestId('runs-card');
  await card.locator('[data-testid="runs-table"], [data-testid="runs-empty"], [data-testid="runs-error"]').first().waitFor({ timeout: 15_000 });
  if (await card.getByTestId('runs-table').count()) return 'table';
  return (await card.getByTestId('runs-empty').count()) ? 'empty' : 'error';
}

describe('Background work, in a real browser', () => {
  it('opens from the sidebar with its heading, its runs (or why there are none) and its schedules', async () => {
    const { context, page } = await signedIn(browser, system.url);
    await page.locator('nav [data-section="background-work"]').click();
    await page.waitForURL(`${system.url}${SECTION}`);
    await page.getByRole('heading', { level: 1, name: 'Background work' }).waitFor();
    expect(await page.title()).toBe('Background work · API Dashboard');
    expect(await page.locator('nav [data-section="background-work"]').getAttribute('aria-current')).toBe('page');

    expect(await runsCardSettled(page)).not.toBe('error');
    await page.getByTestId('schedules-card').locator('[data-testid="schedules-table"], [data-testid="schedules-empty"]').first().waitFor();
    const session = await context.storageState();
    await context.close();

    for (const width of [widths.desktop, widths.mobile]) {
      const shot = await newContext(browser, width, session);
      const p = await shot.newPage();
      await p.goto(`${system.url}${SECTION}`);
      await runsCardSettled(p);
      await expectNoSidewaysScroll(p);
      await screenshot(p, 'background-work');
      await shot.close();
    }
  });

  it('shows runs as the route contracts describe them: status badges, progress, counters, errors, filters, live updates, Cancel and Retry', async () => {
    // The gateway's answers are played by the test here (page.route), so every state the view has is
    // shown whatever the system holds: an unreachable service, a total not known yet, a long error,
    // a stream that moves a run to its end. The journeys below use the real backend.
    const { context, page } = await signedIn(browser, system.url);
    const backend = fakeRunsBackend();
    await page.route((url) => url.pathname.startsWith('/api/admin/runs') || url.pathname === '/api/admin/schedules', (route) => backend.answer(route));
    await page.goto(`${system.url}${SECTION}`);

    const table = page.getByTestId('runs-table');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(5);
    // Newest first.
    expect(await table.locator('tbody tr').first().getAttribute('data-run-id')).toBe(backend.ids.running);
    await page.getByTestId('runs-unreachable').getByText('No answer from payments: their runs are missing from this list.').waitFor();

    const running = rowOf(page, backend.ids.running);
    expect(await statusOf(running)).toBe('in_progress');
    expect(await running.getByTestId('run-status').textContent()).toBe('Running');
    expect(await running.getByTestId('run-figures').textContent()).toBe('120 / 400 (30%)');
    expect(await running.getByTestId('run-counters').textContent()).toContain('failed 2');
    expect(await running.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true);
    expect(await running.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // The duration moves while the run does.
    const before = await running.getByTestId('run-duration').textContent();
    await expect.poll(() => running.getByTestId('run-duration').textContent(), { timeout: 5_000 }).not.toBe(before);

    const counting = rowOf(page, backend.ids.counting);
    expect(await counting.getByTestId('run-figures').textContent()).toBe('12 done');
    expect(await counting.locator('[data-scope="progress"][data-part="root"]').getAttribute('data-state')).toBe('indeterminate');
    expect(await counting.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    expect(await counting.getByTestId('run-status').textContent()).toBe('Cancelling');

    const failed = rowOf(page, backend.ids.failed);
    expect(await failed.getByTestId('run-last-error').textContent()).toMatch(/^The shop answered 401 Unauthorized.*…$/);
    expect(await failed.getByRole('button', { name: 'Retry' }).isEnabled()).toBe(true);
    expect(await failed.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    // Schedules, the last run a link to that run's details.
    const schedules = page.getByTestId('schedules-table');
    expect(await schedules.locator('tbody tr').count()).toBe(2);
    expect(await schedules.locator('tr[data-schedule="expiry-check"]').textContent()).toContain('0 * * * *');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'background-work-runs');

    // Retry: the toast, and the row as the answer has it.
    await failed.getByRole('button', { name: 'Retry' }).click();
    await openToast(page, 'Run started again').waitFor();
    await expect.poll(() => statusOf(failed)).toBe('pending');
    expect(backend.posted).toEqual([`retry ${backend.ids.failed}`]);

    // A refused cancel: the toast carries the API's own error.
    backend.refuseNextCancel = 'The run has already finished';
    await running.getByRole('button', { name: 'Cancel' }).click();
    await openToast(page, 'Could not cancel the run').getByText('The run has already finished').waitFor();
    await expect.poll(() => running.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true);

    // A filter asks the gateway again with it.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await expect.poll(() => backend.lastListQuery()).toContain('status=failed');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(0);
    await page.getByTestId('runs-empty').getByText('No runs match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(5);

    // The running run's details follow its event stream to the end, and the row with them.
    await running.getByRole('button', { name: /^Details of woocommerce-sync/ }).click();
    const detail = page.getByTestId('run-detail');
    await detail.waitFor();
    expect(new URL(page.url()).searchParams.get('run')).toBe(backend.ids.running);
    await page.getByRole('dialog', { name: 'woocommerce-sync · shop-sync' }).waitFor();
    backend.releaseStream();
    await expect.poll(() => detail.getAttribute('data-status'), { timeout: 10_000 }).toBe('completed');
    await expect.poll(() => statusOf(running)).toBe('completed');
    expect(await running.getByTestId('run-figures').textContent()).toBe('400 / 400 (100%)');
    expect(await detail.getByTestId('run-steps').locator('li').count()).toBe(3);
    expect(JSON.parse((await detail.getByTestId('run-result').textContent()) ?? 'null')).toEqual({ synced: 398, failed: 2 });
    expect(backend.streamsOpened).toEqual([backend.ids.running]);
    await animationsDone(page.getByRole('dialog'));
    await screenshot(page, 'background-work-detail', false);

    // A schedule's last run opens that run's details.
    await page.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('run')).toBeNull();
    await page.getByRole('link', { name: `Open run ${backend.ids.failed}` }).click();
    await page.getByTestId('run-detail').and(page.locator(`[data-run-id=${JSON.stringify(backend.ids.failed)}]`)).waitFor();
    await context.close();
  });

  it('a WooCommerce sync started from its page is a run here: followed live while the shop is slow, cancelled, then retried to the end', async () => {
    const { context, page } = await signedIn(browser, system.url);
    try {
      const before = await syncRunIds(page);
      // The shop holds every batch of prices it is sent until the test lets it go (the page itself
      // never posts there), so the run is still at its first batch when Cancel is pressed, however
      // slow the machine: a 14 s delay instead was outrun by a loaded CI machine (the run ended first).
      await startSyncFromShopPage(page, { method: 'POST', pathPrefix: '/wp-json/wc/v3/products', kind: 'hold' });
      const row = await newSyncRow(page, before);
      const id = (await row.getAttribute('data-run-id'))!;
      await expect.poll(() => statusOf(row), { timeout: 10_000 }).toBe('in_progress');
      expect(await row.getByTestId('run-status').textContent()).toBe('Running');
      await row.getByTestId('run-progress').waitFor();
      expect(await row.getByTestId('run-started-by').textContent()).not.toBe('');
      expect(await row.getByTestId('run-duration').textContent()).toMatch(/^\d+s$/);

      // Its details follow its event stream.
      await row.getByRole('button', { name: /^Details of woocommerce-sync/ }).click();
      const dialog = page.getByRole('dialog', { name: 'woocommerce-sync · shop-sync' });
      const detail = page.getByTestId('run-detail');
      await expect.poll(() => detail.getByTestId('run-stream').getAttribute('data-state'), { timeout: 10_000 }).toBe('live');
      await animationsDone(dialog);
      await screenshot(page, 'background-work-live-sync', false);

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await openToast(page, 'Cancel requested').waitFor();
      // The held batch call is given up at once (the run's signal reaches the shop's client): the
      // shop never answers it, so only that brings the end, and the shop sees its client gone.
      await expect.poll(() => detail.getAttribute('data-status'), { timeout: 8_000 }).toBe('cancelled');
      await expect.poll(() => statusOf(rowOf(page, id)), { timeout: 5_000 }).toBe('cancelled');
      // It stopped part way: its plan is done (the held batch was given up), not every product pushed.
      await expect.poll(async () => (await detail.getByTestId('run-steps').locator('li').allTextContents())[0], { timeout: 5_000 }).toMatch(/^plan/);
      expect(Number(await detail.getByTestId('run-progress').getAttribute('data-percent'))).toBeLessThan(100);
      const heldByShop = async () => ((await (await fetch(`${shopUrl()}/__sim/held`)).json()) as { held: { clientGone: boolean }[] }).held;
      await expect.poll(async () => (await heldByShop()).map((held) => held.clientGone).join(), { timeout: 5_000 }).toMatch(/^true(,true)*$/);
      await clearShopFaults();

      // Retry plans afresh (a sync restarts: its kept plan would hold old prices) and runs to the end.
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await openToast(page, 'Run started again').waitFor();
      await expect.poll(() => detail.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
      await expect.poll(() => statusOf(rowOf(page, id)), { timeout: 5_000 }).toBe('completed');
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await rowOf(page, id).getByTestId('run-progress').getAttribute('data-percent')).toBe('100');
      await screenshot(page, 'background-work-after-sync');
    } finally {
      await clearShopFaults();
      await context.close();
    }
  }, 120_000);

  it('a WooCommerce sync the shop refuses is listed as failed with its error; Retry runs it again to the end', async () => {
    const { context, page } = await signedIn(browser, system.url);
    try {
      const before = await syncRunIds(page);
      // The shop refuses the key: an answer (no retry, no breaker), and the sync fails at once.
      await startSyncFromShopPage(page, { pathPrefix: '/wp-json/wc/v3/products', kind: 'status', status: 401, body: { code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.' } });
      await page.getByRole('combobox', { name: 'Service' }).selectOption('shop-sync');
      const row = await newSyncRow(page, before);
      const id = (await row.getAttribute('data-run-id'))!;
      await expect.poll(() => statusOf(row), { timeout: 30_000 }).toBe('failed');
      expect(await row.getByTestId('run-last-error').textContent()).not.toBe('');
      expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

      await clearShopFaults();
      await row.getByRole('button', { name: 'Retry' }).click();
      await openToast(page, 'Run started again').waitFor();
      await expect.poll(() => statusOf(rowOf(page, id)), { timeout: 60_000 }).toBe('completed');
      expect(await rowOf(page, id).getByTestId('run-duration').textContent()).toMatch(/^\d+s$/);
      await screenshot(page, 'background-work-retried');
    } finally {
      await clearShopFaults();
      await context.close();
    }
  }, 150_000);
});
