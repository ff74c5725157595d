import { readFile } from 'node:fs/promises';
import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';
import { adminApi } from './qpay-support';
import { createKeys, openKeysTab, toast } from './streaming-keys-support';

/** A key as GET /api/streaming-keys answers it (the fields these journeys read). */
interface KeyView {
  id: number;
  email: string;
  key: string;
  service: string;
  profileNumber: number;
  expiresAt: string;
  customerId: string | null;
}

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let manychatUrl: string;
let qpayUrl: string;

beforeAll(async () => {
  suite = await startBrowserSuite('streaming-keys');
  ({ system, browser } = suite);
  manychatUrl = system.simulators.manychat!.url;
  qpayUrl = system.simulators.qpay!.url;
});
afterAll(() => suite?.stop());

const apiOf = (page: Page) => adminApi(page, system.url);

const keysOf = async (page: Page, email: string) =>
  (await apiOf(page).get<{ data: KeyView[] }>(`/api/streaming-keys?search=${encodeURIComponent(email)}`)).data.filter((key) => key.email === email);

/** An account e-mail of this run only, so each journey runs alone and in any order. */
const accountEmail = (name: string) => `${name}.${Date.now().toString(36)}@example.mn`;

/** A date N days from today as a date input writes it. */
function daysAhead(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

const keyCard = (page: Page, key: string) => page.locator(`[data-key="${key}"]`);

const slotText = async (page: Page, service: string) => (await page.getByTestId(`slots-${service}`).textContent())?.trim();

describe('the /streaming-keys page against the embedded system', () => {
  it('sets a price on the Pricing tab: the form refuses bad input with its messages, the row shows ₮, inline edit saves an integer and needs a value, delete empties the list', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys?tab=pricing' });
    await page.getByRole('button', { name: 'Add New Price' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Price' });
    // Nothing chosen, a blank name, 13 months, a negative price: each field says what is wrong, nothing is sent.
    await dialog.getByLabel('Duration (months)', { exact: true }).fill('13');
    await dialog.getByLabel('Price (₮)', { exact: true }).fill('-5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    for (const message of ['Service is required', 'Service name is required', 'Duration must not exceed 12 months', 'Price must be at least 0']) {
      await dialog.getByText(message, { exact: true }).waitFor();
    }
    await dialog.getByLabel('Duration (months)', { exact: true }).fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Duration must be at least 1 month', { exact: true }).waitFor();
    expect((await apiOf(page).get<{ data: unknown[] }>('/api/streaming/pricing')).data).toEqual([]);

    // Choosing the service fills in its name.
    await dialog.getByLabel('Service', { exact: true }).selectOption('AMZ');
    expect(await dialog.getByLabel('Service name', { exact: true }).inputValue()).toBe('Amazon Prime Video');
    await dialog.getByLabel('Duration (months)', { exact: true }).fill('3');
    await dialog.getByLabel('Price (₮)', { exact: true }).fill('45000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Price Added');
    const row = page.locator('tr[data-price="AMZ-3"]');
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(['AMZ', 'Amazon Prime Video', '3 months', '₮45,000', 'EditDelete']);

    // Inline edit: Save is disabled while the price is empty; '32000.7' is saved as the integer 32000.
    await row.getByRole('button', { name: 'Edit the price of Amazon Prime Video 3 months' }).click();
    const input = row.getByLabel('New price of Amazon Prime Video 3 months', { exact: true });
    await input.fill('');
    expect(await row.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await input.fill('32000.7');
    await row.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Price Updated');
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('₮32,000');
    const stored = (await apiOf(page).get<{ data: { service: string; duration: number; price: number }[] }>('/api/streaming/pricing')).data;
    expect(stored).toEqual([expect.objectContaining({ service: 'AMZ', duration: 3, price: 32000 })]);

    // A second price for the same service and duration is refused with the service's reason (409), shown in an 'Error' toast.
    await page.getByRole('button', { name: 'Add New Price' }).click();
    await dialog.getByLabel('Service', { exact: true }).selectOption('AMZ');
    await dialog.getByLabel('Duration (months)', { exact: true }).fill('3');
    await dialog.getByLabel('Price (₮)', { exact: true }).fill('1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const refused = await toast(page, 'Error');
    expect(await refused.textContent()).not.toContain('Failed to create pricing');
    await screenshot(page, 'streaming-keys-pricing');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Delete, after a confirmation: the price list is empty again.
    await row.getByRole('button', { name: 'Delete the price of Amazon Prime Video 3 months' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this price?' }).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Price Deleted');
    await row.waitFor({ state: 'detached' });
    await page.getByText('No prices yet. Add New Price sets the first one.').waitFor();
    expect((await apiOf(page).get<{ data: unknown[] }>('/api/streaming/pricing')).data).toEqual([]);
    await context.close();
  });

  it('creates keys for an account (2 profiles): grouped under the e-mail with the slot overview updated; a customer id occupies a slot', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const email = accountEmail('nfx.pool');
    const [occupiedBefore, totalBefore] = (await slotText(page, 'NFX'))!.split('/').map(Number);

    // The required fields first: 'Please fill in all required fields', nothing made.
    await page.getByRole('button', { name: 'Create Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Keys' });
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.getByText('Please fill in all required fields', { exact: true }).waitFor();
    // Months and the custom date exclude each other.
    await dialog.getByLabel('Custom date', { exact: true }).fill(daysAhead(10));
    await dialog.getByLabel('Months', { exact: true }).selectOption('2');
    expect(await dialog.getByLabel('Custom date', { exact: true }).inputValue()).toBe('');
    await dialog.getByLabel('Custom date', { exact: true }).fill(daysAhead(10));
    expect(await dialog.getByLabel('Months', { exact: true }).inputValue()).toBe('');
    // Profiles run 1..5 for Netflix.
    await dialog.getByLabel('Service', { exact: true }).selectOption('NFX');
    expect(await dialog.getByLabel('Profiles', { exact: true }).locator('option').allTextContents()).toEqual(['1', '2', '3', '4', '5']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await createKeys(page, { service: 'NFX', email, months: '1', profiles: '2' });
    const keys = await keysOf(page, email);
    expect(keys.map((key) => key.profileNumber).sort()).toEqual([1, 2]);
    const group = page.locator(`[data-account="${email}"]`);
    await group.waitFor();
    expect(await group.getByRole('heading', { level: 3 }).textContent()).toBe(email);
    expect(await group.locator('[data-service="NFX"] [data-key]').count()).toBe(2);
    for (const key of keys) expect(await keyCard(page, key.key).textContent()).toContain(`Profile ${key.profileNumber}`);
    await expect.poll(() => slotText(page, 'NFX')).toBe(`${occupiedBefore}/${totalBefore + 2}`);

    // The account now has 3 free profiles: the dialog offers it as an existing e-mail.
    await page.getByRole('button', { name: 'Create Key' }).click();
    await dialog.getByLabel('Service', { exact: true }).selectOption('NFX');
    await dialog.getByText('Existing e-mail', { exact: true }).click();
    await expect.poll(() => dialog.getByLabel('Account e-mail', { exact: true }).locator('option').allTextContents()).toContain(`${email} (3 free)`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A customer id holds the key: one slot occupied.
    const first = keys.find((key) => key.profileNumber === 1)!;
    await keyCard(page, first.key).getByRole('button', { name: `Edit the customer ID of ${first.key}` }).click();
    const customer = page.getByRole('dialog', { name: 'Edit Customer ID' });
    await customer.getByLabel('Chat subscriber ID', { exact: true }).fill('9000002');
    await customer.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Customer ID Updated');
    await expect.poll(() => slotText(page, 'NFX')).toBe(`${occupiedBefore + 1}/${totalBefore + 2}`);
    expect(await keyCard(page, first.key).textContent()).toContain('Customer 9000002');
    // Blank is sent as null: the key is free again.
    await keyCard(page, first.key).getByRole('button', { name: `Edit the customer ID of ${first.key}` }).click();
    await customer.getByLabel('Chat subscriber ID', { exact: true }).fill('   ');
    await customer.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Customer ID Updated');
    await expect.poll(async () => (await keysOf(page, email)).find((key) => key.id === first.id)?.customerId).toBeNull();
    await expect.poll(() => slotText(page, 'NFX')).toBe(`${occupiedBefore}/${totalBefore + 2}`);

    // The newest keys, behind their disclosure: these two on top, narrowed by their own search.
    await page.getByRole('button', { name: /Recent Keys/ }).click();
    const recent = page.getByTestId('recent-keys-table');
    await recent.waitFor();
    expect((await recent.locator('tbody tr').allTextContents()).slice(0, 2).every((row) => row.includes(email))).toBe(true);
    await page.getByLabel('Search recent keys', { exact: true }).fill(keys[0].key);
    await expect.poll(() => recent.locator('tbody tr').count()).toBe(1);

    // The search box matches the e-mail (and the key).
    await page.getByLabel('Search by e-mail or key', { exact: true }).fill(keys[1].key);
    await expect.poll(() => page.locator('[data-key]').count()).toBe(1);
    await page.getByLabel('Search by e-mail or key', { exact: true }).fill('no-such-account');
    await page.getByText('No key matches the search.').waitFor();
    await page.getByLabel('Search by e-mail or key', { exact: true }).fill('');
    await group.waitFor();
    await screenshot(page, 'streaming-keys');
    await context.close();
  });

  it('extends a key by months from its card and by its text in the admin tools (with their messages), then deletes it', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const email = accountEmail('dps.extend');
    // A fixed expiry, far ahead (the later of it and now on any day): 31 January, so the months below end on a 31st and on a 30th.
    await createKeys(page, { service: 'DPS', email, date: '2090-01-31', profiles: '1' });
    const [key] = await keysOf(page, email);
    expect(key.expiresAt).toBe('2090-01-31T00:00:00.000Z');

    await keyCard(page, key.key).getByRole('button', { name: `Extend ${key.key}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Extend Key' });
    await dialog.getByText(`${key.key} expires`).waitFor();
    await dialog.getByRole('button', { name: 'Extend' }).click();
    await dialog.getByText('Please select duration or custom date').waitFor();
    await dialog.getByLabel('Months', { exact: true }).selectOption('2');
    await dialog.getByRole('button', { name: 'Extend' }).click();
    await toast(page, 'Key Extended');
    const [extended] = await keysOf(page, email);
    // Two calendar months (in Ulaanbaatar, where 00:00 UTC is 08:00): 31 March.
    expect(extended.expiresAt).toBe('2090-03-31T00:00:00.000Z');

    // The admin tool: 'Please enter a key', 'Key not found', then months on the typed key.
    const tools = page.getByTestId('extend-by-key');
    await tools.getByRole('button', { name: 'Extend' }).click();
    await tools.getByText('Please enter a key').waitFor();
    await tools.getByLabel('Key', { exact: true }).fill('SK-NOSUCHKEY0-DPS');
    await tools.getByRole('button', { name: 'Extend' }).click();
    await tools.getByText('Key not found').waitFor();
    await tools.getByLabel('Key', { exact: true }).fill(key.key.toLowerCase());
    await tools.getByRole('button', { name: 'Extend' }).click();
    await tools.getByText('Please select duration or custom date').waitFor();
    await tools.getByLabel('Months', { exact: true }).selectOption('1');
    await tools.getByRole('button', { name: 'Extend' }).click();
    await toast(page, 'Key Extended');
    // The first extension's toast may still be open: the key's date says when the second has landed. April has no 31st: its last day.
    await expect.poll(async () => (await keysOf(page, email))[0].expiresAt, { timeout: 10_000 }).toBe('2090-04-30T00:00:00.000Z');

    // Delete, after a confirmation: the card and the account's group go, the profile is free again.
    await keyCard(page, key.key).getByRole('button', { name: `Delete ${key.key}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this key?' });
    await confirm.getByText(`${key.key} (profile 1 of ${email})`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Key Deleted');
    await keyCard(page, key.key).waitFor({ state: 'detached' });
    expect(await page.locator(`[data-account="${email}"]`).count()).toBe(0);
    expect(await keysOf(page, email)).toEqual([]);
    await context.close();
  });

  it('generates a QR code: the dialog shows a real PNG of the key', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const email = accountEmail('max.qr');
    await createKeys(page, { service: 'MAX', email, months: '3', profiles: '1' });
    const [key] = await keysOf(page, email);

    await keyCard(page, key.key).getByRole('button', { name: `Generate a QR code of ${key.key}` }).click();
    const dialog = page.getByRole('dialog', { name: 'QR Code' });
    const image = dialog.getByRole('img', { name: `QR code of ${key.key}` });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
    const source = await image.getAttribute('src');
    expect(source).toMatch(/^data:image\/png;base64,/);
    // The PNG signature: a real image, not a placeholder.
    expect(Buffer.from(source!.split(',')[1], 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(await dialog.getByRole('button', { name: 'Copy Image' }).isEnabled()).toBe(true);
    await animationsDone(dialog);
    await screenshot(page, 'streaming-keys-qr', false);
    await context.close();
  });

  it("sets an account's mailbox password from its group: 'Not set', a blank one refused, then set and shown masked, never whole", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const email = accountEmail('nfx.mailbox');
    await createKeys(page, { service: 'NFX', email, months: '1', profiles: '1' });
    const mailbox = page.locator(`[data-account="${email}"] [data-service="NFX"]`).getByTestId('mailbox-password');
    await expect.poll(() => mailbox.getByTestId('mailbox-status').textContent()).toBe('Not set');

    await mailbox.getByRole('button', { name: `Set the mailbox password of ${email} (Netflix)` }).click();
    const dialog = page.getByRole('dialog', { name: 'Mailbox Password' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Please enter the mailbox password', { exact: true }).waitFor();
    await dialog.getByLabel('New mailbox password').fill('Mailbox-Pass-2026');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Mailbox Password Saved');
    await dialog.waitFor({ state: 'hidden' });

    const accounts = await apiOf(page).get<{ data: { email: string; service: string; mailboxPasswordSet: boolean; mailboxPasswordMasked: string }[] }>('/api/streaming-accounts?service=NFX');
    const account = accounts.data.find((candidate) => candidate.email === email)!;
    expect(account).toMatchObject({ mailboxPasswordSet: true });
    expect(account.mailboxPasswordMasked).not.toContain('Mailbox-Pass');
    await expect.poll(() => mailbox.getByTestId('mailbox-status').textContent()).toBe(`Set ${account.mailboxPasswordMasked}`);
    expect(await page.content()).not.toContain('Mailbox-Pass-2026');
    await mailbox.getByRole('button', { name: `Set the mailbox password of ${email} (Netflix)` }).waitFor();
    expect(await mailbox.getByRole('button').textContent()).toBe('Change Mailbox Password');
    await context.close();
  });

  it("downloads the expiry report's CSV with the right columns and today's date in its name", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const email = accountEmail('hlu.report');
    // A key held by a chat subscriber that expires in two days is in the report.
    await createKeys(page, { service: 'HLU', email, date: daysAhead(2), profiles: '1' });
    const [key] = await keysOf(page, email);
    await apiOf(page).patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000003' });

    await page.getByRole('button', { name: 'View Expiring' }).click();
    await page.getByText('Showing the keys that expire within 3 days.').waitFor();
    await keyCard(page, key.key).waitFor();

    await page.getByRole('button', { name: 'Expiry Report' }).click();
    const report = page.getByTestId('expiry-report');
    const row = report.locator('tr', { hasText: key.key });
    await row.waitFor();
    expect(await row.textContent()).toContain('Pending');
    const count = async (field: string) => Number((await report.locator(`[data-count="${field}"]`).textContent())?.replace(/\D/g, ''));
    expect(await count('total')).toBeGreaterThanOrEqual(1);
    expect(await count('pending')).toBeGreaterThanOrEqual(1);

    // Today's date as the browser writes it, read on both sides of the click (a click at midnight names either day).
    const dayBefore = daysAhead(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect([`expiry-report-${dayBefore}.csv`, `expiry-report-${daysAhead(0)}.csv`]).toContain(download.suggestedFilename());
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\r\n');
    expect(lines[0]).toBe('Service,Email,Key,Expires,Status,Attempts');
    expect(lines).toContain(`Hulu,${email},${key.key},${key.expiresAt},pending,0`);
    await screenshot(page, 'streaming-keys-expiry-report', false);
    await context.close();
  });

  it('is usable on a 390 px phone: nothing scrolls sideways, the create dialog fits', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys', width: widths.mobile });
    await openKeysTab(page, system.url);
    const email = accountEmail('amz.phone');
    await createKeys(page, { service: 'AMZ', email, months: '1', profiles: '2' });
    const group = page.locator(`[data-account="${email}"]`);
    await group.waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'streaming-keys');
    await group.scrollIntoViewIfNeeded();
    await screenshot(page, 'streaming-keys-cards', false);
    await page.getByRole('tab', { name: 'Pricing' }).click();
    await page.getByTestId('pricing').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Add New Price' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Price' });
    await animationsDone(dialog);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(widths.mobile);
    await screenshot(page, 'streaming-keys-add-price', false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The same page in Mongolian.
    await page.locator('header').getByRole('button', { name: 'Монгол' }).click();
    await page.getByRole('heading', { level: 1, name: 'Стриминг түлхүүрүүд' }).waitFor();
    await page.getByRole('tab', { name: 'Түлхүүрүүд' }).click();
    await page.getByRole('heading', { level: 2, name: 'Слотын тойм' }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'streaming-keys-mn');
    await context.close();
  });

  it('sends a test notification to the prefilled chat user id; a refused id shows the server’s reason', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const sent = async () => ((await (await fetch(`${manychatUrl}/__sim/messages?subscriberId=9000001`)).json()) as { messages: unknown[] }).messages.length;
    const before = await sent();
    const form = page.getByTestId('test-notification');
    expect(await form.getByLabel('Chat user ID', { exact: true }).inputValue()).toBe('9000001');
    await form.getByRole('button', { name: 'Send Test' }).click();
    expect(await (await toast(page, 'Test Notification Sent')).textContent()).toContain('9000001');
    await expect.poll(sent).toBe(before + 1);

    await form.getByLabel('Chat user ID', { exact: true }).fill('not-an-id');
    await form.getByRole('button', { name: 'Send Test' }).click();
    const refused = await toast(page, 'Error');
    expect(await refused.textContent()).toContain('User ID must be a ManyChat subscriber id (digits)');
    await context.close();
  });

  it("makes an invoice that shows its payment link; paid with no free key it waits under 'Orders Needing Attention' until Assign key gives it one", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys' });
    await openKeysTab(page, system.url);
    const api = apiOf(page);
    // No free Hulu key: every Hulu key there is already held by a customer.
    for (const key of (await api.get<{ data: (KeyView & { held: boolean })[] }>('/api/streaming-keys?service=HLU')).data.filter((key) => !key.held)) {
      await api.patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000004' });
    }

    const form = page.getByTestId('create-invoice');
    const buyer = `buyer.${Date.now().toString(36)}@example.mn`;
    await form.getByRole('textbox', { name: /^Buyer e-mail/ }).fill(buyer);
    await form.getByRole('combobox', { name: /^Service/ }).selectOption('HLU');
    await form.getByLabel('Amount (₮, optional)', { exact: true }).fill('30000');
    await form.getByLabel('Customer name', { exact: true }).fill('Бат-Эрдэнэ');
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    await toast(page, 'Invoice Created');
    const result = form.getByTestId('invoice-result');
    const link = result.getByRole('link');
    const paymentUrl = await link.getAttribute('href');
    expect(paymentUrl).toMatch(/\/payment\/INV-[A-Z0-9]+$/);
    expect(await result.textContent()).toContain('₮30,000');
    const invoiceId = paymentUrl!.split('/').at(-1)!;

    // The customer pays in a bank app: the QPay simulator calls back, the order is paid, no Hulu key is free.
    const { qpayInvoiceId } = await api.get<{ qpayInvoiceId: string }>(`/api/qpay/invoice/${invoiceId}`);
    const paid = await fetch(`${qpayUrl}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(paid.status).toBe(200);
    const attention = page.getByTestId('attention-invoices');
    const waiting = attention.locator(`[data-invoice="${invoiceId}"]`);
    await expect
      .poll(async () => {
        await attention.getByRole('button', { name: 'Refresh' }).click();
        return waiting.count();
      }, { timeout: 20_000, interval: 1_000 })
      .toBe(1);
    expect(await waiting.textContent()).toContain('No free Hulu slot');
    await screenshot(page, 'streaming-keys-attention');

    // A new Hulu key, then Assign key: the order gets it and leaves the list.
    await api.post('/api/streaming-keys', { service: 'HLU', email: accountEmail('hlu.assign'), months: 1, profiles: 1 });
    await waiting.getByRole('button', { name: `Assign a key to order ${invoiceId}` }).click();
    expect(await (await toast(page, 'Key Assigned')).textContent()).toContain(invoiceId);
    await waiting.waitFor({ state: 'detached' });
    const [order] = (await api.get<{ data: { invoiceId: string; status: string; key: string | null }[] }>('/api/streaming-invoices?status=PAID')).data.filter((row) => row.invoiceId === invoiceId);
    expect(order.key).toMatch(/-HLU$/);
    await context.close();
  });

  it("shows a signed-in non-admin 'Admin Only - You need administrator privileges to access this page.'", async () => {
    const { context, page } = await signedIn(browser, system.url, { as: 'user', path: '/streaming-keys' });
    const denied = page.getByTestId('admin-only');
    await denied.waitFor();
    expect(await denied.getByRole('heading', { level: 1 }).textContent()).toBe('Admin Only');
    expect(await denied.textContent()).toBe('Admin OnlyYou need administrator privileges to access this page.');
    expect(await page.title()).toBe('Admin Only · API Dashboard');
    await screenshot(page, 'streaming-keys-admin-only');
    await context.close();
  });
});
