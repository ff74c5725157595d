import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type EmbeddedSystem } from '@bo/embedded';
import { businessDate } from '@bo/proto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, sidewaysOverflow } from './qpay-support';
import { createLocalAdmin, localAdmin, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let downloads: string;

beforeAll(async () => {
  suite = await startBrowserSuite('migration');
  ({ system, browser } = suite);
  downloads = await mkdtemp(join(tmpdir(), 'bo-web-migration-downloads-'));
});
afterAll(async () => {
  await suite?.stop();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

interface ExportFile {
  data: Record<string, Record<string, Record<string, unknown>[]>>;
  metadata: {
    exportTimestamp: string;
    timestamp: string;
    tableCounts: Record<string, number>;
    schemaVersions: Record<string, string | null>;
    checksums: Record<string, string>;
  };
}
interface Pricing {
  id: number;
  service: string;
  price: number;
}

const PRICING_TABLE = 'streaming-keys.streaming_pricing';
/** The business's date now (the file is named with Ulaanbaatar's day, not UTC's). */
const today = () => businessDate(new Date());
const tablesIn = (file: ExportFile) => Object.values(file.data).reduce((sum, tables) => sum + Object.keys(tables).length, 0);

/** The overview of `on` (this suite's system unless said), signed in at this width, with its Database Migration card (its code comes after the status cards). */
async function openCard(width: number = widths.desktop, on: EmbeddedSystem = system) {
  const { context, page } = await signedIn(browser, on.url, { width });
  const card = page.getByTestId('migration-card');
  // The first overview of a fresh system waits on the price sheet's first read.
  await card.getByRole('button', { name: 'Export', exact: true }).waitFor({ timeout: 45_000 });
  return { context, page, card, api: adminApi(page, on.url) };
}

/**
 * Holds the next request the predicate names until `release()`: the progress the card shows while
 * it runs stays on screen long enough to be seen.
 */
async function holdNext(page: Page, matches: (url: URL) => boolean): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(matches, async (route) => {
    await released;
    await route.continue();
  }, { times: 1 });
  return release;
}
const importCall = (dryRun: boolean) => (url: URL) => url.pathname === '/api/migration/import' && url.searchParams.get('dryRun') === String(dryRun);
/** The import run's own answer and its event stream (the gateway's runs). */
const importRunCall = (events: boolean) => (url: URL) => url.pathname.startsWith('/api/admin/runs/gateway.') && url.pathname.endsWith('/events') === events;

/** Chooses a file in the card's file picker, as a person does with the dialog. */
const choose = (card: Locator, file: string | { name: string; mimeType: string; buffer: Buffer }) => card.getByTestId('migration-file').setInputFiles(file);

/** A file that never touched the disk: its JSON (or any text) under a name. */
const fileOf = (name: string, content: unknown) => ({
  name,
  mimeType: name.endsWith('.json') ? 'application/json' : 'text/plain',
  buffer: Buffer.from(typeof content === 'string' ? content : JSON.stringify(content)),
});

/** The rows of a results table by table name: each row's cells as shown. */
async function rowsOf(table: Locator): Promise<Record<string, string[]>> {
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-table') ?? '', Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')] as const),
  );
  return Object.fromEntries(rows);
}

const PASSPHRASE = 'Хар морь 2026 backup';

/** The Export dialog, opened from the card. */
async function openExportDialog(page: Page, card: Locator): Promise<Locator> {
  await card.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export the database' });
  await dialog.waitFor();
  return dialog;
}

/**
 * Export through the card's dialog, with a passphrase typed twice or the plain file ticked (its
 * warning seen): the browser's download, saved, with its name and content (an encrypted file's
 * `data` is sealed in its `body`; its metadata is readable).
 */
async function exportThroughCard(page: Page, card: Locator, choice: { passphrase: string } | 'plain', dialog?: Locator): Promise<{ name: string; path: string; file: ExportFile }> {
  dialog ??= await openExportDialog(page, card);
  if (choice === 'plain') {
    if (!(await dialog.getByTestId('export-plain-warning').isVisible())) await dialog.getByText('Export without encryption').click();
    await dialog.getByTestId('export-plain-warning').waitFor();
  } else {
    await dialog.locator('input[name="passphrase"]').fill(choice.passphrase);
    await dialog.locator('input[name="passphraseAgain"]').fill(choice.passphrase);
  }
  const press = dialog.getByRole('button', { name: choice === 'plain' ? 'Export plain file' : 'Export encrypted' });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), press.click()]);
  const name = download.suggestedFilename();
  // Saved under its own name (the card shows the chosen file's name), a folder per export.
  const path = join(await mkdtemp(join(downloads, 'export-')), name);
  await download.saveAs(path);
  return { name, path, file: JSON.parse(await readFile(path, 'utf8')) as ExportFile };
}

describe('the Database Migration card in a real browser', () => {
  it('exports a file named with the date; importing it changes nothing; after a price edit it puts the price back', async () => {
    const { context, page, card, api } = await openCard();
    const created = (await api.post<{ data: Pricing }>('/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 })).data;

    // Export: the server's file name with today's date (read on both sides of the export: one at midnight names either day), the metadata and the row just made.
    const dayBefore = today();
    // The plain file only by ticking its box, which says what anyone holding the file can read.
    const dialog = await openExportDialog(page, card);
    expect(await dialog.getByTestId('export-plain-warning').count()).toBe(0);
    await dialog.getByText('Export without encryption').click();
    expect(await dialog.getByTestId('export-plain-warning').textContent()).toMatch(/^Anyone who has the plain file can read it: every customer's key/);
    expect(await dialog.locator('input[name="passphrase"]').count()).toBe(0);
    await screenshot(page, 'migration-export-plain');
    const exported = await exportThroughCard(page, card, 'plain', dialog);
    expect([`database-export-${dayBefore}.json`, `database-export-${today()}.json`]).toContain(exported.name);
    expect(exported.name).toBe(`database-export-${exported.file.metadata.exportTimestamp.slice(0, 10)}.json`);
    expect(new Date(exported.file.metadata.exportTimestamp).toISOString()).toBe(exported.file.metadata.exportTimestamp);
    expect(exported.file.metadata.tableCounts[PRICING_TABLE]).toBe(1);
    expect(exported.file.data['streaming-keys'].streaming_pricing).toEqual([
      expect.objectContaining({ id: created.id, service: 'NFX', service_name: 'Netflix', duration: 1, price: 35_000, is_active: true }),
    ]);
    expect(await card.getByRole('button', { name: 'Export', exact: true }).isEnabled()).toBe(true);

    // The same file back: a dry run first ('Checking the file…' while it runs), which finds nothing to do.
    let release = await holdNext(page, importCall(true));
    await choose(card, exported.path);
    await card.getByRole('status').filter({ hasText: 'Checking the file…' }).waitFor();
    expect(await card.getByRole('button', { name: 'Import a file' }).isDisabled()).toBe(true);
    release();
    const check = card.getByTestId('migration-check');
    await check.waitFor();
    const tables = tablesIn(exported.file);
    expect(await check.getByTestId('migration-file-summary').textContent()).toMatch(new RegExp(`^${exported.name.replace(/\./g, '\\.')}: exported .+, ${tables} tables$`));
    // Nothing to add, update or refuse, but for the request log's counts by the hour, which every request since the export has grown.
    const working = await rowsOf(check.getByTestId('migration-check-table'));
    expect(working).toEqual({});
    if (Object.keys(working).length === 0) {
      expect(await check.getByTestId('migration-check-totals').textContent()).toBe('Every table is already as in the file: nothing to add or update.');
    }
    await check.getByRole('button', { name: `Show unchanged tables (${tables - Object.keys(working).length})` }).click();
    const sameFile = await rowsOf(check.getByTestId('migration-check-table'));
    expect(Object.keys(sameFile)).toHaveLength(tables);
    for (const [table, cells] of Object.entries(sameFile)) expect({ table, work: [cells[1], cells[2], cells[4]] }).toEqual({ table, work: ['0', '0', '0'] });
    expect(sameFile[PRICING_TABLE]).toEqual([PRICING_TABLE, '0', '0', '1', '0']);
    await screenshot(page, 'migration-check-same-file');

    release = await holdNext(page, importCall(false));
    await check.getByRole('button', { name: 'Import', exact: true }).click();
    await card.getByRole('status').filter({ hasText: 'Importing…' }).waitFor();
    release();
    const result = card.getByTestId('migration-result');
    await result.getByText('Import Completed', { exact: true }).waitFor();
    expect(await check.count()).toBe(0);
    const imported = await rowsOf(result.getByTestId('migration-result-table'));
    expect(Object.keys(imported)).toHaveLength(tables);
    expect(imported[PRICING_TABLE]).toEqual([PRICING_TABLE, '1', '0']);
    expect(await result.textContent()).toMatch(new RegExp(`^Import Completed${tables} tables; rows: 0 added, \\d+ updated, [\\d,]+ unchanged, 0 failed`));
    expect(Object.values(imported).every((cells) => cells[2] === '0')).toBe(true);

    // The price changed through the API; the file puts it back: the dry run says 'would update 1', the import does it.
    await api.put(`/api/streaming/pricing/${created.id}`, { price: 42_000 });
    await choose(card, exported.path);
    await check.waitFor();
    expect(await result.count()).toBe(0);
    const changed = await rowsOf(check.getByTestId('migration-check-table'));
    expect(changed).toEqual({ [PRICING_TABLE]: [PRICING_TABLE, '0', '1', '0', '0'] });
    expect(await check.getByTestId('migration-check-totals').textContent()).toMatch(/^Would add 0, update \d+ and refuse 0 rows; [\d,]+ are already the same\.$/);
    expect(await check.getByRole('columnheader').allTextContents()).toEqual(['Table', 'Would add', 'Would update', 'Unchanged', 'Would be refused']);
    await screenshot(page, 'migration-check');
    // A dry run changes nothing.
    expect((await api.get<{ data: Pricing[] }>('/api/streaming/pricing')).data.find((row) => row.id === created.id)?.price).toBe(42_000);

    await check.getByRole('button', { name: 'Import', exact: true }).click();
    await result.getByText('Import Completed', { exact: true }).waitFor();
    expect((await rowsOf(result.getByTestId('migration-result-table')))[PRICING_TABLE]).toEqual([PRICING_TABLE, '1', '0']);
    expect(await result.getByRole('columnheader').allTextContents()).toEqual(['Table', 'Success', 'Failed']);
    expect((await api.get<{ data: Pricing[] }>('/api/streaming/pricing')).data.find((row) => row.id === created.id)?.price).toBe(35_000);
    await screenshot(page, 'migration-result');

    // Cancel discards a checked file: nothing is imported.
    await api.put(`/api/streaming/pricing/${created.id}`, { price: 42_000 });
    await choose(card, exported.path);
    await check.waitFor();
    await check.getByRole('button', { name: 'Cancel' }).click();
    await check.waitFor({ state: 'detached' });
    expect((await api.get<{ data: Pricing[] }>('/api/streaming/pricing')).data.find((row) => row.id === created.id)?.price).toBe(42_000);
    await context.close();
  }, 120_000);

  it("refuses what is not a migration file in the browser: 'Invalid File', 'Invalid migration file format'", async () => {
    const { context, page, card } = await openCard();
    const imports: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/migration/import') imports.push(request.url());
    });
    const error = card.getByTestId('migration-error');

    await choose(card, fileOf('hello.json', { hello: 1 }));
    await error.waitFor();
    expect(await error.textContent()).toBe('Invalid FileInvalid migration file format');
    expect(await error.getAttribute('role')).toBe('alert');
    await screenshot(page, 'migration-invalid');

    // A text file that is not JSON at all: a new error in place of the first.
    await error.evaluate((element) => element.setAttribute('data-seen', 'true'));
    await choose(card, fileOf('notes.txt', 'these are not the rows you are looking for'));
    const next = card.locator('[data-testid="migration-error"]:not([data-seen])');
    await next.waitFor();
    expect(await next.textContent()).toBe('Invalid FileInvalid migration file format');
    // Metadata without its export time is refused too.
    await next.evaluate((element) => element.setAttribute('data-seen', 'true'));
    await choose(card, fileOf('no-time.json', { data: {}, metadata: { timestamp: '2026-11-27T08:00:00.000Z' } }));
    await card.locator('[data-testid="migration-error"]:not([data-seen])').waitFor();
    expect(imports).toEqual([]);
    await context.close();
  });

  it("refuses a file exported by a newer version: 'Failed to import database' with the server's words, and changes nothing", async () => {
    const { context, page, card, api } = await openCard();
    const file = await api.get<ExportFile>('/api/migration/export');
    const ownVersion = file.metadata.schemaVersions['streaming-keys'];
    expect(ownVersion).toMatch(/^\d{14}_\w+$/);
    file.metadata.schemaVersions['streaming-keys'] = '99990101000000_future';

    await choose(card, fileOf('database-export-future.json', file));
    const error = card.getByTestId('migration-error');
    await error.waitFor();
    // The title, then the server's message.
    expect(await error.textContent()).toBe(
      `Failed to import databasestreaming-keys: The file was exported by a newer version (migration 99990101000000_future; this system is at ${ownVersion}): upgrade this system first`,
    );
    expect(await card.getByTestId('migration-check').count()).toBe(0);
    await screenshot(page, 'migration-newer-version');
    await context.close();
  });

  it('round trip: a file from here, imported into a fresh system as a run the card follows, exports the same data and counts there', async () => {
    const { context, page, card, api } = await openCard();
    await api.post('/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 6, price: 90_000 });
    await api.post('/api/streaming-keys', { service: 'NFX', email: 'nfx.round-trip@example.mn', months: 1, profiles: 4, password: 'Round-Trip-2026' });
    // A local admin, whose password hash the file never holds.
    await createLocalAdmin(system.databaseUrl);
    const exported = await exportThroughCard(page, card, { passphrase: PASSPHRASE });
    await context.close();
    // Encrypted: its rows sealed, its metadata readable.
    expect(exported.name).toMatch(/^database-export-\d{4}-\d{2}-\d{2}\.encrypted\.json$/);
    expect(exported.file).toMatchObject({ format: 'bo-encrypted-export', encryption: { cipher: 'aes-256-gcm' } });
    expect(exported.file.data).toBeUndefined();
    expect(await readFile(exported.path, 'utf8')).not.toContain('nfx.round-trip@example.mn');

    // A fresh system with this one's key ring (a copy of its secrets): a sealed password opens there too.
    const targetDir = await mkdtemp(join(tmpdir(), 'bo-web-migration-target-'));
    await copyFile(join(system.dataDir, 'secrets.json'), join(targetDir, 'secrets.json'));
    const target = await startEmbedded({ port: 0, dataDir: targetDir, quiet: true });
    try {
      const there = await openCard(widths.desktop, target);
      await choose(there.card, exported.path);
      // It asks for the passphrase; a wrong one is said, nothing is checked, and it may be typed again.
      const locked = there.card.getByTestId('migration-locked');
      await locked.getByText(`${exported.name}: enter the passphrase it was exported with.`).waitFor();
      await locked.locator('input[name="passphrase"]').fill(`${PASSPHRASE}?`);
      await locked.getByRole('button', { name: 'Open', exact: true }).click();
      const error = there.card.getByTestId('migration-error');
      await error.waitFor();
      expect(await error.textContent()).toBe('Cannot open the fileWrong passphrase or damaged file');
      await screenshot(there.page, 'migration-wrong-passphrase');
      await locked.locator('input[name="passphrase"]').fill(PASSPHRASE);
      await locked.getByRole('button', { name: 'Open', exact: true }).click();
      const check = there.card.getByTestId('migration-check');
      await check.waitFor();
      expect(await there.card.getByTestId('migration-error').count()).toBe(0);
      expect((await rowsOf(check.getByTestId('migration-check-table')))[PRICING_TABLE]).toEqual([PRICING_TABLE, String(exported.file.metadata.tableCounts[PRICING_TABLE]), '0', '0', '0']);

      // The import is a run: its first state shows at once (its own answer and stream held a moment), with a link to it in Background work.
      const releases = await Promise.all([holdNext(there.page, importRunCall(false)), holdNext(there.page, importRunCall(true))]);
      await check.getByRole('button', { name: 'Import', exact: true }).click();
      const progress = there.card.getByTestId('migration-progress');
      await progress.getByTestId('run-progress').waitFor();
      expect(await progress.getByRole('status').textContent()).toMatch(/^Importing…Details$/);
      const details = await progress.getByTestId('migration-run-details').getAttribute('href');
      expect(details).toMatch(/^\/\?section=background-work&run=gateway\.[0-9a-f-]{36}$/);
      await screenshot(there.page, 'migration-import-run');
      for (const release of releases) release();

      // One row is refused, and said so: the admin who signed in there is a user of the same e-mail under another id.
      const result = there.card.getByTestId('migration-result');
      await result.getByText('Import Completed with Errors', { exact: true }).waitFor({ timeout: 60_000 });
      expect(await progress.count()).toBe(0);
      const imported = await rowsOf(result.getByTestId('migration-result-table'));
      expect(imported[PRICING_TABLE]).toEqual([PRICING_TABLE, String(exported.file.metadata.tableCounts[PRICING_TABLE]), '0']);
      expect(imported['gateway.users']![0]).toMatch(/^gateway\.users.*duplicate key value violates unique constraint "users_email_key"$/);
      expect(imported['gateway.users']!.slice(1)).toEqual(['0', '1']);
      expect(Object.entries(imported).filter(([table, cells]) => table !== 'gateway.users' && cells[2] !== '0')).toEqual([]);
      // The local admin arrived without a password, and the page says how to give them one.
      expect(imported['gateway.local_admins']).toEqual(['gateway.local_admins', '1', '0']);
      expect(await result.getByTestId('admins-without-password').textContent()).toBe(
        `Local admins without a passwordA backup never holds passwords. Until one is set on this server with make create-admin USERNAME=<name> PASSWORD=<password>, these admins cannot sign in with a password: ${localAdmin.username}`,
      );
      await screenshot(there.page, 'migration-import-run-result');

      // The run is in Background work with a step per service and the import's result.
      const run = await there.api.get<{ status: string; kind: string; steps: { name: string }[]; progress: { current: number; total: number } }>(`/api/admin/runs/${decodeURIComponent(details!.split('run=')[1]!)}`);
      expect(run).toMatchObject({ status: 'completed', kind: 'migration-import' });
      expect(run.steps.map((step) => step.name).sort()).toEqual(Object.keys(exported.file.metadata.schemaVersions).map((part) => `import ${part}`).sort());
      expect(run.progress.current).toBe(run.progress.total);

      // Exported again there: every table as here, row for row, but the audit logs (which hold the
      // import's own entries) and the gateway's accounts (each system signs its admin in itself).
      const again = await there.api.get<ExportFile>('/api/migration/export');
      const differs = (table: string) => table.endsWith('.admin_logs') || table === 'gateway.users';
      const compared = (file: ExportFile) =>
        Object.fromEntries(Object.keys(exported.file.metadata.tableCounts).filter((table) => !differs(table)).map((table) => [table, [file.metadata.tableCounts[table], file.metadata.checksums[table]]]));
      expect(compared(again)).toEqual(compared(exported.file));
      // The account's password, sealed with the shared key ring, opens there.
      const accounts = await there.api.get<{ data: { email: string; passwordMasked: string | null }[] }>('/api/streaming-accounts');
      expect(accounts.data).toContainEqual(expect.objectContaining({ email: 'nfx.round-trip@example.mn', passwordMasked: '••••2026' }));
      await there.context.close();
    } finally {
      await target.stop();
      await rm(targetDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('fits a phone: the buttons wrap, the results table scrolls inside its own box', async () => {
    const { context, page, card, api } = await openCard(widths.mobile);
    await api.post('/api/streaming/pricing', { service: 'DPS', serviceName: 'Disney+', duration: 3, price: 60_000 });
    const dayBefore = today();
    // The passphrase: at least 12 characters, and the same twice; the dialog says which is wrong and downloads nothing.
    const dialog = await openExportDialog(page, card);
    await dialog.locator('input[name="passphrase"]').fill('eleven char');
    await dialog.getByRole('button', { name: 'Export encrypted' }).click();
    await dialog.getByText('The passphrase must be at least 12 characters').waitFor();
    await dialog.locator('input[name="passphrase"]').fill(PASSPHRASE);
    await dialog.locator('input[name="passphraseAgain"]').fill(`${PASSPHRASE} `);
    await dialog.getByRole('button', { name: 'Export encrypted' }).click();
    await dialog.getByText('The two passphrases are not the same').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'migration-export-dialog');
    const exported = await exportThroughCard(page, card, { passphrase: PASSPHRASE }, dialog);
    expect([`database-export-${dayBefore}.encrypted.json`, `database-export-${today()}.encrypted.json`]).toContain(exported.name);
    const price = (await api.get<{ data: Pricing[] }>('/api/streaming/pricing')).data.find((row) => row.service === 'DPS')!;
    await api.put(`/api/streaming/pricing/${price.id}`, { price: 65_000 });

    await choose(card, exported.path);
    await card.getByTestId('migration-locked').locator('input[name="passphrase"]').fill(PASSPHRASE);
    await card.getByTestId('migration-locked').getByRole('button', { name: 'Open', exact: true }).click();
    const check = card.getByTestId('migration-check');
    await check.waitFor();
    expect(Object.keys(await rowsOf(check.getByTestId('migration-check-table')))).toEqual([PRICING_TABLE]);
    await check.getByRole('button', { name: /^Show unchanged tables/ }).click();
    expect(await sidewaysOverflow(page)).toBe(0);
    // The name, what would be added and what would be updated side by side without scrolling the table.
    const pricing = check.locator(`tr[data-table="${PRICING_TABLE}"]`);
    const [tableBox, updatedCell] = await Promise.all([check.getByTestId('migration-check-table').locator('xpath=..').boundingBox(), pricing.locator('td').nth(2).boundingBox()]);
    expect(updatedCell!.x + updatedCell!.width).toBeLessThanOrEqual(tableBox!.x + tableBox!.width);
    await screenshot(page, 'migration-check');

    await check.getByRole('button', { name: 'Import', exact: true }).click();
    const result = card.getByTestId('migration-result');
    await result.getByText('Import Completed', { exact: true }).waitFor();
    const box = result.getByTestId('migration-result-table').locator('xpath=..');
    const scroll = await box.evaluate((element) => ({ height: element.clientHeight, content: element.scrollHeight, width: element.clientWidth, wide: element.scrollWidth }));
    expect(scroll.content).toBeGreaterThan(scroll.height); // every table listed, scrolling in its own box
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'migration-result');
    await context.close();
  });
});
