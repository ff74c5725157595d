import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, payAtQpay, sidewaysOverflow, toast, type CreatedInvoice } from './qpay-support';
import { animationsDone, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

interface Settings { qpayClientId: string; qpayClientSecret: string; qpayClientSecretSet: boolean; qpayInvoiceCode: string; enabled: boolean }
interface InvoiceRecord { invoiceId: string; status: string; flag: string | null; approvedBy: string | null }

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let qpayUrl: string;

beforeAll(async () => {
  // The reconciliation job would complete a payment whose callback was lost on its own; here only the admin's Re-check may.
  suite = await startBrowserSuite('qpay', { environment: { payments: { RECONCILE_EVERY_MS: '3600000' } } });
  ({ system, browser } = suite);
  qpayUrl = system.simulators.qpay!.url;
});
afterAll(() => suite?.stop());

async function openTab(page: Page, tab: 'settings' | 'webhooks' | 'invoices' | 'logs'): Promise<void> {
  await page.goto(`${system.url}/qpay?tab=${tab}`);
  await page.getByRole('heading', { level: 1, name: 'QPay Payments' }).waitFor({ timeout: 15_000 });
  expect(await page.getByRole('tab', { selected: true }).textContent()).toBe({ settings: 'Settings', webhooks: 'Webhooks', invoices: 'Invoices', logs: 'Logs' }[tab]);
}

const pendingItem = (page: Page, invoiceId: string) => page.getByTestId('pending-invoices').locator(`li[data-invoice="${invoiceId}"]`);
const recentRow = (page: Page, invoiceId: string) => page.getByTestId('recent-invoices-table').locator(`tr[data-invoice="${invoiceId}"]`);

async function confirm(page: Page, title: string, button: string): Promise<void> {
  const dialog = page.getByRole('alertdialog', { name: title });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
}

const gone = (locator: Locator) => locator.waitFor({ state: 'detached', timeout: 15_000 });

/** Netflix for `months` listed at `price` on the Streaming Keys pricing tab (a chat order is sold only at a listed price). */
const listPrice = (api: ReturnType<typeof adminApi>, months: number, price: number) =>
  api.post<{ data: { id: number } }>('/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: months, price }).then((reply) => reply.data);

describe('the /qpay page against the QPay simulator', () => {
  it('Settings: a saved secret comes back masked and the field blank; enabling without an invoice code is Update Failed with the server\'s reason', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay' });
    const api = adminApi(page, system.url);
    await openTab(page, 'settings');
    expect(await page.title()).toBe('QPay Payments · API Dashboard');
    const form = page.getByRole('form', { name: 'QPay Settings' });
    await form.waitFor();
    expect(await form.getByLabel('Client ID').inputValue()).toBe('TEST_MERCHANT');
    expect(await form.getByLabel('Invoice code').inputValue()).toBe('TEST_INVOICE');
    expect(await form.getByLabel('Environment').inputValue()).toBe('sandbox');
    expect(await form.getByRole('checkbox', { name: 'Enabled' }).isChecked()).toBe(true);
    const secret = form.getByLabel('Client secret');
    expect(await secret.inputValue()).toBe('');

    // The simulator's own secret typed again (another would lock the merchant out of the simulator for the other tests).
    await secret.fill('123456');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await toast(page, 'Settings Saved')).toContain('The QPay settings were updated.');
    await page.getByTestId('settings-updated-at').waitFor();
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    const saved = await api.get<Settings>('/api/qpay/settings');
    expect(saved.qpayClientSecretSet).toBe(true);
    expect(saved.qpayClientSecret).toMatch(/^•+/);
    expect(saved.qpayClientSecret).not.toContain('123456');
    expect(await form.getByText(`Saved (${saved.qpayClientSecret}). Leave blank to keep it.`).isVisible()).toBe(true);
    expect(await page.content()).not.toContain('123456');

    // The secret kept when the field stays blank: the service still gets QPay tokens with it.
    const created = await api.createInvoice('Secret kept check', 1_000);
    expect(created.invoice.qpayInvoiceId).toBeTruthy();

    // Refused by the service: its reason under the spec's title, and nothing saved.
    await form.getByLabel('Invoice code').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await toast(page, 'Update Failed')).toContain('To enable QPay, fill in the client id, client secret and invoice code');
    expect((await api.get<Settings>('/api/qpay/settings')).qpayInvoiceCode).toBe('TEST_INVOICE');
    await context.close();
  });

  it('Webhooks: the two inbound paths, the test webhook answers 200 with the payment link; invalid JSON is never sent; a refused payload is Test Failed', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay?tab=webhooks' });
    // The sample orders Netflix for a month at 35,000₮: the webhook sells it only at a listed price.
    await listPrice(adminApi(page, system.url), 1, 35_000);
    await openTab(page, 'webhooks');
    expect(await page.getByTestId('webhook-address-path').textContent()).toBe('/api/qpay/webhook');
    expect(await page.getByTestId('callback-address-path').textContent()).toBe('/api/qpay/callback');
    await page.getByTestId('webhook-address-url').waitFor();
    expect(await page.getByTestId('webhook-address-url').textContent()).toBe(`${system.url}/api/qpay/webhook`);
    expect(await page.getByTestId('callback-address-url').textContent()).toBe(`${system.url}/api/qpay/callback`);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/qpay/test-webhook') sent.push(request.postData() ?? '');
    });

    const editor = page.getByLabel('Payload (JSON)');
    const sample = JSON.parse(await editor.inputValue());
    expect(sample).toMatchObject({ user_id: expect.any(String), first_name: expect.any(String), last_name: expect.any(String), email: expect.any(String), phone: expect.any(String) });
    expect(sample.custom_fields).toEqual({ invoice_code: 'NFX-1M', invoice_id: expect.any(String), amount: expect.anything() });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await toast(page, 'Test Sent')).toContain('The webhook answered 200.');
    const result = page.getByTestId('test-result');
    expect(await result.getByTestId('test-result-status').textContent()).toBe('200');
    expect(await result.getByTestId('test-result-success').textContent()).toBe('Yes');
    const link = (await result.getByTestId('test-result-link').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${system.url}/payment/INV-[A-Z0-9]{10}$`));
    expect(await result.getByTestId('test-result-message').textContent()).toContain('Netflix 1 сар');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0])).toEqual(sample);
    // The link is a real invoice: the customer's page shows it pending.
    const view = await adminApi(page, system.url).get<{ status: string; amount: number }>(`/api/qpay/invoice/${link.split('/').pop()}`);
    expect(view).toMatchObject({ status: 'pending', amount: Number(sample.custom_fields.amount) });

    // Not JSON: said so under the editor, Send disabled, nothing goes out.
    await editor.fill('{ "user_id": "1234567", ');
    await page.getByText('The payload is not valid JSON:', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Reset' }).click();
    expect(JSON.parse(await editor.inputValue())).toEqual(sample);
    expect(sent).toHaveLength(1);

    // Valid JSON the webhook refuses: the title the spec gives and the service's error field.
    await editor.fill(JSON.stringify({ ...sample, custom_fields: { ...sample.custom_fields, amount: 0 } }, null, 2));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await toast(page, 'Test Failed')).toContain('custom_fields.amount must be more than 0');
    expect(await result.getByTestId('test-result-status').textContent()).toBe('400');
    expect(await result.getByTestId('test-result-success').textContent()).toBe('No');
    expect(await result.getByTestId('test-result-error').textContent()).toContain('custom_fields.amount');
    expect(sent).toHaveLength(2);
    await context.close();
  });

  it("Webhooks: the chat webhook secret shows masked; Copy puts the whole of it on the clipboard; Rotate replaces it after a confirmation and the old one opens nothing", async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay?tab=webhooks' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.url });
    const api = adminApi(page, system.url);
    await openTab(page, 'webhooks');
    const card = page.getByTestId('webhook-secret');
    const masked = card.getByTestId('webhook-secret-masked');
    await expect.poll(() => masked.textContent()).toMatch(/^••••.{4}$/);
    const first = (await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal')).secret;
    expect(await masked.textContent()).toBe(`••••${first.slice(-4)}`);
    expect(await card.getByTestId('webhook-secret-rotated').textContent()).toBe('Not rotated yet: this is the secret the deployment started with.');
    // The whole secret is nowhere on the page or in what the page read.
    expect(await page.content()).not.toContain(first);

    const revealed: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/qpay/webhook-secret/reveal') revealed.push(response.request().method());
    });
    await card.getByRole('button', { name: 'Copy Chat Webhook Secret' }).click();
    await card.getByRole('button', { name: 'Copy Chat Webhook Secret' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    expect(revealed).toEqual(['POST']);
    await screenshot(page, 'qpay-webhook-secret');

    await card.getByRole('button', { name: 'Rotate', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Rotate the webhook secret?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("the chat flow's payment requests are refused until its X-Webhook-Secret header has the new one");
    await screenshot(page, 'qpay-webhook-secret-rotate', false);
    await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
    expect(await toast(page, 'Secret Rotated')).toContain("Copy the new secret into the chat flow's X-Webhook-Secret header.");
    const second = (await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal')).secret;
    expect(second).not.toBe(first);
    await expect.poll(() => masked.textContent()).toBe(`••••${second.slice(-4)}`);
    expect(await card.getByTestId('webhook-secret-rotated').textContent()).toMatch(/^Last rotated /);
    await card.getByRole('button', { name: 'Copy Chat Webhook Secret' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(second);

    const order = { user_id: '1234567', custom_fields: { invoice_code: 'NFX-1M', invoice_id: 'ROTATE-1', amount: '35000' } };
    const withOld = await page.request.post(`${system.url}/api/qpay/webhook`, { data: order, headers: { 'x-webhook-secret': first } });
    expect(withOld.status()).toBe(401);
    const withNew = await page.request.post(`${system.url}/api/qpay/webhook`, { data: order, headers: { 'x-webhook-secret': second } });
    expect(withNew.status()).toBe(200);
    await screenshot(page, 'qpay-webhook-secret-rotated');
    await context.close();
  });

  it('Paid below its price: the order waits on /qpay with the reason, no key given; Approve gives it one, Refund closes it, each after a confirmation', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay' });
    const api = adminApi(page, system.url);
    const price = await listPrice(api, 3, 90_000);
    await api.post('/api/streaming-keys', { service: 'NFX', email: 'nfx.below@example.mn', months: 3, profiles: 2 });
    const { secret } = await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal');
    // Two chat orders at today's price; the price goes up before they are paid, so each payment is now below it.
    const chatOrders = [];
    for (const reference of ['BELOW-1', 'BELOW-2']) {
      const reply = await page.request.post(`${system.url}/api/qpay/webhook`, { data: { user_id: '5551234', first_name: 'Бат', custom_fields: { invoice_code: 'NFX-3M', invoice_id: reference, amount: '90000' } }, headers: { 'x-webhook-secret': secret } });
      expect(reply.status()).toBe(200);
      const invoiceId = ((await reply.json()).content.messages[0].buttons[0].url as string).split('/payment/')[1];
      chatOrders.push((await api.get<{ invoiceId: string; qpayInvoiceId: string }>(`/api/qpay/invoice/${invoiceId}`)));
    }
    await api.put(`/api/streaming/pricing/${price.id}`, { price: 100_000 });
    const [toApprove, toRefund] = chatOrders;
    await payAtQpay(qpayUrl, toApprove.qpayInvoiceId);
    await payAtQpay(qpayUrl, toRefund.qpayInvoiceId, { type: 'CARD' });

    await page.goto(`${system.url}/qpay`);
    const alert = page.getByTestId('orders-below-price');
    await alert.locator(`[data-order="${toRefund.invoiceId}"]`).waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('2 paid orders are below their price');
    expect(await alert.locator(`[data-order="${toApprove.invoiceId}"]`).textContent()).toContain('Paid 90,000₮, below the price of Netflix 3 сар (100,000₮): approve to assign a key anyway, or refund');
    await screenshot(page, 'qpay-below-price');

    await page.getByRole('button', { name: `Approve order ${toApprove.invoiceId}` }).click();
    await confirm(page, 'Approve this order?', 'Approve');
    expect(await toast(page, 'Order Approved')).toMatch(new RegExp(`SK-[A-Z0-9]{10}-NFX was given to order ${toApprove.invoiceId}`));
    await gone(alert.locator(`[data-order="${toApprove.invoiceId}"]`));

    await page.getByRole('button', { name: `Refund order ${toRefund.invoiceId}` }).click();
    await confirm(page, 'Refund this order?', 'Refund');
    expect(await toast(page, 'Order Refunded')).toContain('Refunded 90,000₮ through QPay');
    await gone(alert);
    const orders = (await api.get<{ data: { invoiceId: string; status: string; approvedBy: string | null; refundedBy: string | null; key: string | null }[] }>('/api/streaming-invoices')).data;
    expect(orders.find((order) => order.invoiceId === toApprove.invoiceId)).toMatchObject({ status: 'PAID', approvedBy: 'admin@example.com', key: expect.stringMatching(/^SK-/) });
    expect(orders.find((order) => order.invoiceId === toRefund.invoiceId)).toMatchObject({ status: 'REFUNDED', refundedBy: 'admin@example.com', key: null });
    await context.close();
  });

  it('Invoices: approve and delete with a confirmation, re-check a payment whose callback was lost, a partial payment flagged first; refusals are Approval Failed and Delete Failed', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay?tab=invoices' });
    const api = adminApi(page, system.url);
    const make = (name: string, amount: number) => api.createInvoice(name, amount);
    const [toApprove, toDelete, lostCallback, partial, paidMeanwhile, approvedMeanwhile] = await Promise.all([
      make('Approve me', 11_000), make('Delete me', 12_000), make('Lost callback', 13_000), make('Partial payment', 14_000), make('Paid meanwhile', 15_000), make('Approved meanwhile', 16_000),
    ]) as CreatedInvoice[];
    await payAtQpay(qpayUrl, partial.invoice.qpayInvoiceId!, { amount: 7_000 });
    await payAtQpay(qpayUrl, lostCallback.invoice.qpayInvoiceId!, { callback: 'none' });

    await openTab(page, 'invoices');
    const pending = page.getByTestId('pending-invoices');
    await pendingItem(page, toApprove.invoiceId).waitFor({ timeout: 15_000 });
    // The partial payment leads the list, its flag in words.
    expect(await pending.locator('li').first().getAttribute('data-invoice')).toBe(partial.invoiceId);
    const flag = pendingItem(page, partial.invoiceId).getByTestId('invoice-flag');
    expect(await flag.textContent()).toContain('a partial payment');
    expect(await flag.textContent()).toContain('Needs attention');
    expect(await pendingItem(page, toApprove.invoiceId).getByTestId('invoice-flag').count()).toBe(0);

    // Approve: asked first, then paid, gone from pending and paid in the recent list with who approved it.
    await page.getByRole('button', { name: `Approve ${toApprove.invoiceId}` }).click();
    await confirm(page, 'Approve this invoice?', 'Approve');
    expect(await toast(page, 'Invoice Approved')).toContain(`${toApprove.invoiceId} is paid.`);
    await gone(pendingItem(page, toApprove.invoiceId));
    const approvedRow = recentRow(page, toApprove.invoiceId);
    await expect.poll(() => approvedRow.locator('[data-status]').textContent(), { timeout: 15_000 }).toBe('Paid');
    expect(await approvedRow.textContent()).toContain('approved by admin@example.com');
    expect(await approvedRow.getByRole('link', { name: toApprove.invoiceId }).getAttribute('href')).toBe(`/payment/${toApprove.invoiceId}`);

    // Delete: cancelled at QPay, gone from both lists, and the customer's page no longer finds it.
    await page.getByRole('button', { name: `Delete ${toDelete.invoiceId}` }).click();
    await confirm(page, 'Delete this invoice?', 'Delete');
    expect(await toast(page, 'Invoice Deleted')).toContain(`${toDelete.invoiceId} was cancelled.`);
    await gone(pendingItem(page, toDelete.invoiceId));
    await gone(recentRow(page, toDelete.invoiceId));
    expect((await page.request.get(`${system.url}/api/qpay/invoice/${toDelete.invoiceId}`)).status()).toBe(404);

    // Re-check: QPay says paid although no callback came; the order completes and the message says so.
    await page.getByRole('button', { name: `Re-check ${lostCallback.invoiceId} with QPay` }).click();
    expect(await toast(page, `${lostCallback.invoiceId} re-checked`)).toContain('the order is completed');
    await gone(pendingItem(page, lostCallback.invoiceId));
    await expect.poll(() => recentRow(page, lostCallback.invoiceId).locator('[data-status]').textContent()).toBe('Paid');

    // Paid (by its callback) and approved behind the page's back: the service refuses, the page says why and drops them.
    await payAtQpay(qpayUrl, paidMeanwhile.invoice.qpayInvoiceId!);
    await page.getByRole('button', { name: `Approve ${paidMeanwhile.invoiceId}` }).click();
    await confirm(page, 'Approve this invoice?', 'Approve');
    expect(await toast(page, 'Approval Failed')).toContain('The invoice is paid: only a pending invoice can be approved');
    await gone(pendingItem(page, paidMeanwhile.invoiceId));

    await api.post(`/api/admin/invoices/${approvedMeanwhile.invoiceId}/approve`);
    await page.getByRole('button', { name: `Delete ${approvedMeanwhile.invoiceId}` }).click();
    await confirm(page, 'Delete this invoice?', 'Delete');
    expect(await toast(page, 'Delete Failed')).toContain('A paid invoice cannot be deleted');
    await gone(pendingItem(page, approvedMeanwhile.invoiceId));

    const left = (await api.get<{ data: InvoiceRecord[] }>('/api/qpay/invoices/pending')).data.map((invoice) => invoice.invoiceId);
    expect(left).toContain(partial.invoiceId);
    expect(left).not.toEqual(expect.arrayContaining([toApprove.invoiceId, toDelete.invoiceId, lostCallback.invoiceId, paidMeanwhile.invoiceId, approvedMeanwhile.invoiceId]));
    await screenshot(page, 'qpay-invoices');
    await context.close();
  });

  it('Invoices: a new invoice made on the page opens on the payment page, pending at its amount; a bad amount is never sent; a refusal is an Error toast with the reason', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay?tab=invoices' });
    const api = adminApi(page, system.url);
    await openTab(page, 'invoices');
    const form = page.getByRole('form', { name: 'New Invoice' });
    await form.getByLabel('Customer name').fill('Болормаа');
    await form.getByLabel('Product').fill('Free Fire 520 diamonds');
    await form.getByLabel('Amount (₮)').fill('38 000.5');
    await form.getByText('Enter a whole number of tugrik, such as 35000').waitFor();
    expect(await form.getByRole('button', { name: 'Create Invoice' }).isDisabled()).toBe(true);
    await form.getByLabel('Amount (₮)').fill('38,000');
    await form.getByLabel('Chat subscriber ID').fill('7654321');
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    expect(await toast(page, 'Invoice Created')).toMatch(/INV-[A-Z0-9]{10} for ₮38,000/);
    const link = (await page.getByTestId('created-invoice-link').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${system.url}/payment/INV-[A-Z0-9]{10}$`));
    const invoiceId = link.split('/').pop()!;
    expect(await form.getByLabel('Customer name').inputValue()).toBe('');
    await pendingItem(page, invoiceId).waitFor();
    expect(await pendingItem(page, invoiceId).textContent()).toContain('Free Fire 520 diamonds');
    const made = (await api.get<{ data: (InvoiceRecord & { payer: { name: string; subscriberId: string } })[] }>('/api/qpay/invoices/pending')).data.find((invoice) => invoice.invoiceId === invoiceId)!;
    expect(made.payer).toMatchObject({ name: 'Болормаа', subscriberId: '7654321' });

    const customer = await context.newPage();
    await customer.goto(link);
    await expect.poll(() => customer.getByTestId('invoice-status').textContent(), { timeout: 15_000 }).toBe('Pending');
    expect(await customer.getByTestId('invoice-amount').textContent()).toBe('₮38,000');
    expect(await customer.getByRole('heading', { level: 1 }).textContent()).toBe('Free Fire 520 diamonds');
    await customer.close();

    // QPay switched off in the settings: the service refuses, and the toast carries its reason.
    const settings = { qpayClientId: 'TEST_MERCHANT', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox' };
    await api.post('/api/qpay/settings', { ...settings, enabled: false });
    try {
      await form.getByLabel('Customer name').fill('Болормаа');
      await form.getByLabel('Product').fill('Free Fire 520 diamonds');
      await form.getByLabel('Amount (₮)').fill('38000');
      await form.getByRole('button', { name: 'Create Invoice' }).click();
      expect(await toast(page, 'Error')).toContain('QPay is not enabled');
      expect(await form.getByLabel('Product').inputValue()).toBe('Free Fire 520 diamonds');
    } finally {
      await api.post('/api/qpay/settings', { ...settings, enabled: true });
    }
    await context.close();
  });

  it('Logs: the callback of a paid invoice, with its request and response on demand', async () => {
    const { context, page } = await signedIn(browser, system.url);
    const created = await adminApi(page, system.url).createInvoice('Logged payment', 21_000);
    const payment = await payAtQpay(qpayUrl, created.invoice.qpayInvoiceId!);
    await openTab(page, 'logs');
    const entry = page.getByTestId('webhook-logs').locator(`li[data-log-type="callback"][data-reference="${created.invoiceId}"]`);
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.getAttribute('data-status')).toBe('accepted');
    expect(await entry.textContent()).toMatch(/\d+ ms/);
    expect(await entry.getByTestId('log-request').isVisible()).toBe(false);
    await entry.getByRole('button', { name: 'Show request and response' }).click();
    await entry.getByTestId('log-request').waitFor();
    expect(await entry.getByTestId('log-request').textContent()).toContain(payment.payment_id);
    expect(await entry.getByTestId('log-response').textContent()).toContain('SUCCESS');
    await animationsDone(entry);
    await screenshot(page, 'qpay-logs');
    await context.close();
  });

  it('on a 390 px phone every tab fits the screen, in English and in Mongolian', async () => {
    const { context, page } = await signedIn(browser, system.url, { width: widths.mobile });
    for (const tab of ['settings', 'webhooks', 'invoices', 'logs'] as const) {
      await openTab(page, tab);
      await page.waitForLoadState('networkidle');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `qpay-${tab}`);
    }
    await page.getByRole('button', { name: 'Монгол' }).click();
    await page.getByRole('tab', { name: 'Тохиргоо' }).click();
    await page.getByRole('form', { name: 'QPay тохиргоо' }).waitFor();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'qpay-settings-mn');
    await context.close();
  });

  // A proxy in front answering in the service's place is outside this system: the browser stands in for it.
  it("a list answered by a proxy's HTML page reads as empty; a failed list load is 'Failed to fetch ...' in the page and in an 'Error' toast", async () => {
    const { context, page } = await signedIn(browser, system.url);
    // A pending invoice the HTML page hides, and one the recent list (answered as usual) shows.
    await adminApi(page, system.url).createInvoice('Behind a proxy', 5_000);
    await page.route((url) => url.pathname === '/api/qpay/invoices/pending', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>Maintenance</body></html>' }));
    await page.route((url) => url.pathname === '/api/qpay/logs', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'payments is unavailable' }) }));
    await openTab(page, 'invoices');
    await page.getByText('No invoice is waiting for payment.').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('pending-invoices-count').textContent()).toBe('0');
    await page.getByTestId('recent-invoices-table').getByText('Behind a proxy').waitFor();

    await page.getByRole('tab', { name: 'Logs' }).click();
    const failed = page.getByTestId('webhook-logs-error');
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.textContent()).toBe('Failed to fetch webhook logspayments is unavailable');
    expect(await toast(page, 'Error')).toContain('payments is unavailable');
    await context.close();
  });

  it('a signed-in non-admin does not see /qpay', async () => {
    const { context, page } = await signedIn(browser, system.url, { as: 'user', path: '/qpay' });
    await page.getByTestId('access-denied').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('tab').count()).toBe(0);
    await context.close();
  });
});
