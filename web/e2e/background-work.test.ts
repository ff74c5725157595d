import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeRunsBackend } from './background-work-support';
import { animationsDone, newContext, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('background-work');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

const SECTION = '/?section=background-work';

/** Whether the gateway answers the runs list (the backend of this view landed after the view). */
async function runsApiAnswers(page: Page): Promise<boolean> {
  const response = await page.request.get(`${system.url}/api/admin/runs?limit=1`);
  return response.ok();
}

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

const openToast = (page: Page, title: string) => page.locator('[data-scope="toast"][data-part="root"][data-state="open"]').filter({ hasText: title });
const rowOf = (page: Page, id: string) => page.locator(`tr[data-run-id=${JSON.stringify(id)}]`);
const statusOf = (scope: Locator) => scope.getByTestId('run-status').first().getAttribute('data-status');

/** The page may not scroll sideways at 390 px: the tables scroll inside their own box. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
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

    const settled = await runsCardSettled(page);
    if (await runsApiAnswers(page)) {
      expect(settled).not.toBe('error');
      await page.getByTestId('schedules-card').locator('[data-testid="schedules-table"], [data-testid="schedules-empty"]').first().waitFor();
    } else {
      // Before the gateway answers /api/admin/runs, the page says so rather than showing an empty list.
      expect(settled).toBe('error');
      await page.getByTestId('runs-error').getByText('Could not load the background runs').waitFor();
    }
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

  it('a WooCommerce sync started from its page is a run here: its progress while the shop is slow, then Cancel', async (test) => {
    const { context, page } = await signedIn(browser, system.url);
    if (!(await runsApiAnswers(page))) {
      await context.close();
      test.skip(); // the gateway does not answer /api/admin/runs yet
      return;
    }
    const shopUrl = system.simulators.woocommerce!.url;
    const api = apiOf(page);
    const mappings = await api.get<{ data: unknown[] }>('/api/woocommerce/mappings');
    if (mappings.data.length === 0) await api.post('/api/woocommerce/auto-map');
    // Every price push held 20 s: the sync stays in progress long enough to be seen and cancelled.
    await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
    await fetch(`${shopUrl}/__sim/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'POST', pathPrefix: '/wp-json/wc/v3/products', kind: 'slow', delayMs: 20_000 }),
    });
    try {
      await page.goto(`${system.url}/woocommerce`);
      await page.getByTestId('connected').waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Sync Products' }).click();

      await page.locator('nav [data-section="background-work"]').click();
      await page.waitForURL(`${system.url}${SECTION}`);
      const row = page.locator('tr[data-run-id^="shop-sync."]').first();
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => statusOf(row), { timeout: 15_000 }).toBe('in_progress');
      await row.getByTestId('run-progress').waitFor();
      const id = (await row.getAttribute('data-run-id'))!;

      await row.getByRole('button', { name: /^Details of / }).click();
      const detail = page.getByTestId('run-detail');
      await expect.poll(() => detail.getByTestId('run-stream').getAttribute('data-state'), { timeout: 10_000 }).toBe('live');
      await screenshot(page, 'background-work-live-sync', false);

      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await openToast(page, 'Cancel requested').waitFor();
      await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
      // It stops at its next step: once the held push has been answered.
      await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
      await expect.poll(() => detail.getAttribute('data-status'), { timeout: 40_000 }).toBe('cancelled');
      await expect.poll(() => statusOf(rowOf(page, id)), { timeout: 5_000 }).toBe('cancelled');
      await rowOf(page, id).getByRole('button', { name: 'Retry' }).waitFor();
    } finally {
      await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
      await context.close();
    }
  });

  it('a failed WooCommerce sync shows its error, and Retry runs it again to the end', async (test) => {
    const { context, page } = await signedIn(browser, system.url);
    if (!(await runsApiAnswers(page))) {
      await context.close();
      test.skip(); // the gateway does not answer /api/admin/runs yet
      return;
    }
    const shopUrl = system.simulators.woocommerce!.url;
    const api = apiOf(page);
    const mappings = await api.get<{ data: unknown[] }>('/api/woocommerce/mappings');
    if (mappings.data.length === 0) await api.post('/api/woocommerce/auto-map');
    // The shop refuses the keys (an answer, so no retry and no breaker): the sync fails.
    await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
    await fetch(`${shopUrl}/__sim/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pathPrefix: '/wp-json/wc/v3/products', kind: 'status', status: 401, body: { code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.' } }),
    });
    try {
      await page.goto(`${system.url}/woocommerce`);
      await page.getByTestId('connected').or(page.getByText('Sorry, you cannot list resources.')).first().waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Sync Products' }).click();

      await page.locator('nav [data-section="background-work"]').click();
      await page.waitForURL(`${system.url}${SECTION}`);
      await page.getByRole('combobox', { name: 'Service' }).selectOption('shop-sync');
      const row = page.locator('tr[data-run-id^="shop-sync."]').first();
      await expect.poll(() => statusOf(row), { timeout: 30_000 }).toBe('failed');
      expect(await row.getByTestId('run-last-error').textContent()).not.toBe('');
      const id = (await row.getAttribute('data-run-id'))!;

      await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
      await row.getByRole('button', { name: 'Retry' }).click();
      await openToast(page, 'Run started again').waitFor();
      await expect.poll(() => statusOf(rowOf(page, id)), { timeout: 30_000 }).toBe('completed');
      expect(await rowOf(page, id).getByTestId('run-duration').textContent()).toMatch(/^\d+s$/);
      await screenshot(page, 'background-work-retried');
    } finally {
      await fetch(`${shopUrl}/__sim/faults`, { method: 'DELETE' });
      await context.close();
    }
  });
});
