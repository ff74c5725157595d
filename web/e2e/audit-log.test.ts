import type { EmbeddedSystem } from '@bo/embedded';
import type { AuditEntryView } from '@bo/proto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, sidewaysOverflow } from './qpay-support';
import { animationsDone, newContext, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('audit-log');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

const SECTION = '/?section=audit-log';
const ADMIN = 'admin@example.com';
const PASSWORD = 'Audit-Pass-2026';
const NEXT_PASSWORD = 'Audit-Pass-2027';

interface AuditReply {
  data: AuditEntryView[];
  nextBefore: string | null;
  unreachable: string[];
}
interface Pricing {
  id: number;
  price: number;
}

const rows = (page: Page) => page.locator('tr[data-audit-id]');
const rowOf = (page: Page, id: string) => page.locator(`tr[data-audit-id=${JSON.stringify(id)}]`);
const listedIds = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-audit-id')));
const listedOf = (page: Page, attribute: string) => rows(page).evaluateAll((trs, name) => trs.map((tr) => tr.getAttribute(name)), attribute);
const jsonIn = async (locator: Locator): Promise<Record<string, unknown>> => JSON.parse((await locator.textContent()) ?? 'null') as Record<string, unknown>;

/** Every entry of the audit log the filter finds, newest first, page after page as the gateway hands them out (test set-up and checks). */
async function auditEntries(page: Page, query: Record<string, string> = {}): Promise<AuditEntryView[]> {
  const api = adminApi(page, system.url);
  const all: AuditEntryView[] = [];
  let before: string | null = null;
  do {
    const reply: AuditReply = await api.get(`/api/admin/audit?${new URLSearchParams({ ...query, limit: '200', ...(before ? { before } : {}) })}`);
    all.push(...reply.data);
    before = reply.nextBefore;
  } while (before);
  return all;
}

/** The Audit log opened from the sidebar, as a person does, once its list has answered. */
async function openFromSidebar(page: Page): Promise<void> {
  await page.locator('nav [data-section="audit-log"]').click();
  await page.waitForURL(`${system.url}${SECTION}`);
  await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
  await listSettled(page);
}

/** Waits until the list has answered one way or the other: rows, its empty text, or its error. */
async function listSettled(page: Page): Promise<void> {
  await page.getByTestId('audit-card').locator('[data-testid="audit-table"], [data-testid="empty"], [role="alert"]').first().waitFor({ timeout: 15_000 });
}

const actorFilter = (page: Page) => page.getByRole('textbox', { name: 'Actor', exact: true });
const tableFilter = (page: Page) => page.getByRole('textbox', { name: 'Table', exact: true });
const actionFilter = (page: Page) => page.getByRole('combobox', { name: 'Action', exact: true });

async function openDetails(page: Page, id: string): Promise<Locator> {
  await rowOf(page, id).getByRole('button', { name: /^Details/ }).click();
  const detail = page.getByTestId('audit-detail').and(page.locator(`[data-audit-id=${JSON.stringify(id)}]`));
  await detail.waitFor();
  await animationsDone(page.getByRole('dialog'));
  return detail;
}

/** Presses Load older while it is offered: each press appends the next, older page. */
async function pressLoadOlderUntilGone(page: Page): Promise<void> {
  const loadOlder = page.getByRole('button', { name: 'Load older' });
  for (let press = 0; press < 10 && (await loadOlder.count()); press++) {
    const shown = await rows(page).count();
    await loadOlder.click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(shown);
  }
  await loadOlder.waitFor({ state: 'detached' });
}

/** The rows listed are exactly these entries, in this order: none lost or repeated between pages. */
async function expectEvery(page: Page, expected: string[]): Promise<void> {
  const listed = await listedIds(page);
  expect(expected.filter((id) => !listed.includes(id)), 'entries no page listed').toEqual([]);
  expect(listed).toEqual(expected);
}

async function closeDetails(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

describe('the audit log, in a real browser', () => {
  it("lists an admin's real writes with who, from where and which request; filters by table and action; shows the row before and after; never a password", async () => {
    const { context, page } = await signedIn(browser, system.url);
    const api = adminApi(page, system.url);
    // Every answer the page is given, to look for the password in them too.
    const answers: Promise<string>[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/admin/audit') answers.push(response.text().catch(() => ''));
    });

    // Real writes through the API with the page's session and CSRF token, as the dashboard's pages make them.
    const created = (await api.post<{ data: Pricing }>('/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 })).data;
    await api.put(`/api/streaming/pricing/${created.id}`, { price: 32_000 });
    // An account's password is set once it has keys.
    await api.post('/api/streaming-keys', { service: 'NFX', email: 'nfx.audit@example.mn', months: 1, profiles: 1 });
    await api.put('/api/streaming-accounts/password', { service: 'NFX', email: 'nfx.audit@example.mn', password: PASSWORD });
    await api.put('/api/streaming-accounts/password', { service: 'NFX', email: 'nfx.audit@example.mn', password: NEXT_PASSWORD });

    const pricingEntries = (await auditEntries(page, { entity: 'streaming_pricing' })).filter((entry) => entry.entityId === String(created.id));
    const made = pricingEntries.find((entry) => entry.action === 'create')!;
    const updated = pricingEntries.find((entry) => entry.action === 'update')!;
    // The account: made with its first key (no password yet), its password set, then changed.
    const [accountChanged, accountSet, accountMade] = (await auditEntries(page, { entity: 'streaming_accounts' })).filter((entry) => entry.after?.email === 'nfx.audit@example.mn');
    expect([made, updated, accountMade, accountSet, accountChanged].every(Boolean)).toBe(true);
    expect([accountMade.action, accountSet.action, accountChanged.action]).toEqual(['create', 'update', 'update']);

    await openFromSidebar(page);
    expect(await page.title()).toBe('Audit log · API Dashboard');
    expect(await page.locator('nav [data-section="audit-log"]').getAttribute('aria-current')).toBe('page');
    await page.getByText('Every change an admin made: who, when, from where, and the values before and after.').waitFor();

    // Each write is a row: the admin's e-mail, their address, the service, the action, the table and row, the request.
    for (const entry of [made, updated, accountMade, accountSet, accountChanged]) await rowOf(page, entry.id).waitFor();
    const row = rowOf(page, updated.id);
    expect(await row.getByTestId('audit-actor').textContent()).toBe(ADMIN);
    expect(await row.getByTestId('audit-address').textContent()).toMatch(/\d/);
    expect(await row.getByTestId('audit-action').textContent()).toBe('Updated');
    expect(await row.getByTestId('audit-entity').textContent()).toBe('streaming_pricing');
    expect(await row.textContent()).toContain(`row ${created.id}`);
    expect(await row.textContent()).toContain('streaming-keys');
    expect(await row.getByTestId('audit-request').textContent()).toBe('PUT /api/streaming/pricing/:id');
    expect(await rowOf(page, made.id).getByTestId('audit-action').getAttribute('data-action')).toBe('create');
    expect(await rowOf(page, made.id).getByTestId('audit-request').textContent()).toBe('POST /api/streaming/pricing');
    expect(await rowOf(page, accountSet.id).getByTestId('audit-request').textContent()).toBe('PUT /api/streaming-accounts/password');
    // Newest first: the second password change above the first, the edit above the price's creation.
    const order = await listedIds(page);
    expect(order.indexOf(accountChanged.id)).toBeLessThan(order.indexOf(accountSet.id));
    expect(order.indexOf(updated.id)).toBeLessThan(order.indexOf(made.id));

    // By table: only streaming_pricing rows, the account's gone.
    await tableFilter(page).fill('streaming_pricing');
    await rowOf(page, accountSet.id).waitFor({ state: 'detached' });
    expect(new Set(await listedOf(page, 'data-entity'))).toEqual(new Set(['streaming_pricing']));
    expect(await rowOf(page, made.id).count()).toBe(1);

    // And by action: the edit only.
    await actionFilter(page).selectOption({ label: 'Updated' });
    await rowOf(page, made.id).waitFor({ state: 'detached' });
    expect(new Set(await listedOf(page, 'data-action'))).toEqual(new Set(['update']));
    expect(await rowOf(page, updated.id).count()).toBe(1);
    await screenshot(page, 'audit-log-filtered');

    // The edit's details: the price before and after, side by side, the changed fields named and marked.
    const detail = await openDetails(page, updated.id);
    await page.getByRole('dialog', { name: `Updated: streaming_pricing · row ${created.id}` }).waitFor();
    expect(await detail.getByTestId('audit-changed').textContent()).toBe('Changed: price, updated_at');
    expect(await jsonIn(detail.getByTestId('audit-before'))).toMatchObject({ id: created.id, service: 'NFX', price: 35_000 });
    expect(await jsonIn(detail.getByTestId('audit-after'))).toMatchObject({ id: created.id, service: 'NFX', price: 32_000 });
    expect(await detail.getByTestId('audit-after').locator('[data-changed="true"]').allTextContents()).toEqual([
      expect.stringContaining('"price": 32000'),
      expect.stringContaining('"updated_at"'),
    ]);
    const [before, after] = await Promise.all(['audit-before', 'audit-after'].map((id) => detail.getByTestId(id).boundingBox()));
    expect(after!.x).toBeGreaterThan(before!.x + before!.width - 1); // side by side on a wide screen
    expect(await detail.textContent()).toContain(updated.correlationId!);
    await screenshot(page, 'audit-log-detail', false);
    await closeDetails(page);

    // The password: set, then changed; the entries say so, masked, and the secret is nowhere.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await rowOf(page, accountSet.id).waitFor();
    expect(await tableFilter(page).inputValue()).toBe('');
    expect(await actionFilter(page).inputValue()).toBe('');
    await tableFilter(page).fill('streaming_accounts');
    await rowOf(page, updated.id).waitFor({ state: 'detached' });
    const accountRow = await openDetails(page, accountMade.id);
    expect(await accountRow.getByTestId('audit-before').textContent()).toBe('None: the row was created');
    expect(await jsonIn(accountRow.getByTestId('audit-after'))).toMatchObject({ email: 'nfx.audit@example.mn', service: 'NFX', password: null });
    expect(await accountRow.getByTestId('audit-changed').count()).toBe(0);
    await closeDetails(page);
    const set = await openDetails(page, accountSet.id);
    expect(await set.getByTestId('audit-changed').textContent()).toMatch(/^Changed: .*\bpassword\b/);
    expect(await jsonIn(set.getByTestId('audit-before'))).toMatchObject({ password: null });
    expect((await jsonIn(set.getByTestId('audit-after'))).password).toMatch(/^••••/);
    await screenshot(page, 'audit-log-password', false);
    await closeDetails(page);
    const changed = await openDetails(page, accountChanged.id);
    expect(await changed.getByTestId('audit-changed').textContent()).toMatch(/^Changed: .*\bpassword\b/);
    expect(await jsonIn(changed.getByTestId('audit-before'))).toMatchObject({ password: '••••' });
    expect(await jsonIn(changed.getByTestId('audit-after'))).toMatchObject({ password: '•••• (changed)' });
    for (const secret of [PASSWORD, NEXT_PASSWORD]) {
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(secret);
      expect(await page.content()).not.toContain(secret);
      for (const answer of await Promise.all(answers)) expect(answer).not.toContain(secret);
    }
    expect(answers.length).toBeGreaterThan(0);
    await closeDetails(page);
    const session = await context.storageState();
    await context.close();

    // Both widths: the whole list and the edit's details, with no sideways page scroll (the table scrolls in its own box).
    for (const width of [widths.desktop, widths.mobile]) {
      const shot = await newContext(browser, width, session);
      const p = await shot.newPage();
      await p.goto(`${system.url}${SECTION}`);
      await rowOf(p, updated.id).waitFor();
      expect(await sidewaysOverflow(p)).toBeLessThanOrEqual(0);
      expect(await p.evaluate(() => document.body.innerText)).not.toContain(PASSWORD);
      await screenshot(p, 'audit-log');
      await openDetails(p, updated.id);
      expect(await sidewaysOverflow(p)).toBeLessThanOrEqual(0);
      if (width === widths.mobile) {
        const [b, a] = await Promise.all(['audit-before', 'audit-after'].map((id) => p.getByTestId(id).boundingBox()));
        expect(a!.y).toBeGreaterThan(b!.y + b!.height - 1); // one above the other on a phone
      }
      await screenshot(p, 'audit-log-detail', false);
      await shot.close();
    }
  });

  it('asks once the typing pauses; says when nothing matches; pages with Load older until the last entry', async () => {
    const { context, page } = await signedIn(browser, system.url);
    const api = adminApi(page, system.url);
    // More changes than a page holds, in two services: a price changed 30 times, an exchange rate saved 30 times.
    const price = (await api.post<{ data: Pricing }>('/api/streaming/pricing', { service: 'AMZ', serviceName: 'Amazon Prime', duration: 3, price: 10_000 })).data;
    for (let step = 1; step <= 30; step++) {
      await api.put(`/api/streaming/pricing/${price.id}`, { price: 10_000 + step });
      await api.put('/api/scraper/exchange-rate', { rate: 3_400 + step });
    }
    const expected = (await auditEntries(page, { actor: ADMIN })).map((entry) => entry.id);
    expect(expected.length).toBeGreaterThan(60);

    const asked: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/admin/audit') asked.push(url);
    });
    await openFromSidebar(page);

    // Typed slowly, the actor is asked for once, whole, when the typing pauses; nobody's changes are no rows.
    asked.length = 0;
    await actorFilter(page).pressSequentially('nobody@example.mn', { delay: 60 });
    await page.getByTestId('empty').getByText('No changes match these filters').waitFor();
    await page.waitForTimeout(600);
    expect(asked.map((url) => url.searchParams.get('actor'))).toEqual(['nobody@example.mn']);
    expect(await rows(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    expect(await actorFilter(page).inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Clear filters' }).count()).toBe(0);

    // The admin's own changes, page after page.
    const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('actor') === ADMIN);
    await actorFilter(page).fill(ADMIN);
    await answered;
    const loadOlder = page.getByRole('button', { name: 'Load older' });
    await loadOlder.waitFor();
    await expect.poll(async () => new Set(await rows(page).getByTestId('audit-actor').allTextContents())).toEqual(new Set([ADMIN]));
    expect(new Set(await listedOf(page, 'data-service'))).toEqual(new Set(['streaming-keys', 'scraper']));
    const firstPage = await rows(page).count();
    expect(firstPage).toBeLessThanOrEqual(50);
    expect(firstPage).toBeLessThan(expected.length);
    await pressLoadOlderUntilGone(page);
    expect(asked.some((url) => url.searchParams.get('before') && url.searchParams.get('actor') === ADMIN)).toBe(true);
    await expectEvery(page, expected);
    await context.close();
  }, 120_000);

  it("pages one table's entries with Load older too, when a single service holds them all", async () => {
    const { context, page } = await signedIn(browser, system.url);
    const api = adminApi(page, system.url);
    const price = (await api.post<{ data: Pricing }>('/api/streaming/pricing', { service: 'HLU', serviceName: 'Hulu', duration: 6, price: 20_000 })).data;
    for (let step = 1; step <= 55; step++) await api.put(`/api/streaming/pricing/${price.id}`, { price: 20_000 + step });
    const expected = (await auditEntries(page, { entity: 'streaming_pricing' })).map((entry) => entry.id);
    expect(expected.length).toBeGreaterThan(55);

    await openFromSidebar(page);
    const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('entity') === 'streaming_pricing');
    await tableFilter(page).fill('streaming_pricing');
    await answered;
    await expect.poll(async () => new Set(await listedOf(page, 'data-entity'))).toEqual(new Set(['streaming_pricing']));
    expect(await rows(page).count()).toBeLessThan(expected.length);
    await page.getByRole('button', { name: 'Load older' }).waitFor({ timeout: 5_000 });
    await pressLoadOlderUntilGone(page);
    await expectEvery(page, expected);
    await context.close();
  }, 120_000);

  it('says when nothing is recorded yet, and names the services that did not answer', async () => {
    // The gateway's answer is played by the test here (page.route): a fresh log, then a service that did not answer.
    const { context, page } = await signedIn(browser, system.url);
    let unreachable: string[] | null = null;
    await page.route(
      (url) => url.pathname === '/api/admin/audit',
      async (route) => {
        if (unreachable === null) return route.fulfill({ json: { data: [], nextBefore: null, unreachable: [] } });
        const response = await route.fetch();
        const body = (await response.json()) as AuditReply;
        return route.fulfill({ response, json: { ...body, unreachable } });
      },
    );
    await page.goto(`${system.url}${SECTION}`);
    await page.getByTestId('empty').getByText('No changes recorded yet').waitFor();
    expect(await page.getByTestId('audit-unreachable').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Load older' }).count()).toBe(0);

    unreachable = ['scraper', 'ai-chat'];
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const warning = page.getByTestId('audit-unreachable');
    await warning.waitFor();
    expect(await warning.textContent()).toBe('Not shown: entries of ai-chat, scraper, which did not answer');
    await listSettled(page);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });
});
