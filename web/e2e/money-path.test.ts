import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, payAtQpay } from './qpay-support';
import { createKeys, openKeysTab, toast } from './streaming-keys-support';
import { newContext, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let qpayUrl: string;
let manychatUrl: string;

beforeAll(async () => {
  suite = await startBrowserSuite('money-path');
  ({ system, browser } = suite);
  qpayUrl = system.simulators.qpay!.url;
  manychatUrl = system.simulators.manychat!.url;
});
afterAll(() => suite?.stop());

/** What the ManyChat simulator accepted for one subscriber. */
const chatMessages = async (subscriberId: string) =>
  ((await (await fetch(`${manychatUrl}/__sim/messages?subscriberId=${subscriberId}`)).json()) as { messages: { content: unknown }[] }).messages;

// Issue 9's first journey, every step through the pages a person uses: an admin sets a price,
// creates keys for an account and a streaming invoice; a payer opens the payment page on a phone
// and pays in the QPay simulator; the page turns paid within 3 s, the key shows as assigned on
// /streaming-keys and the ManyChat simulator has the key message. Then an order no key is free for
// is shown waiting on /qpay and /streaming-keys.
describe('the money path through the pages', () => {
  it('sells a key: price, keys, invoice, payment on a phone, the key assigned and delivered in the chat', async () => {
    const run = Date.now().toString(36);
    const account = `nfx.path.${run}@example.mn`;
    const buyer = '9000001'; // a subscriber the ManyChat simulator knows, who wrote recently
    const { context, page } = await signedIn(browser, system.url, { path: '/streaming-keys?tab=pricing' });
    const api = adminApi(page, system.url);

    // The price of Netflix for a month.
    await page.getByRole('button', { name: 'Add New Price' }).click();
    const priceDialog = page.getByRole('dialog', { name: 'Add New Price' });
    await priceDialog.getByLabel('Service', { exact: true }).selectOption('NFX');
    await priceDialog.getByLabel('Duration (months)', { exact: true }).fill('1');
    await priceDialog.getByLabel('Price (₮)', { exact: true }).fill('35000');
    await priceDialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Price Added');

    // Two keys of one account, and every other Netflix key held, so the sale takes one of these.
    await openKeysTab(page, system.url);
    await createKeys(page, { service: 'NFX', email: account, months: '1', profiles: '2' });
    for (const key of (await api.get<{ data: { id: number; email: string; held: boolean; service: string }[] }>('/api/streaming-keys')).data) {
      if (key.service === 'NFX' && !key.held && key.email !== account) await api.patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000004' });
    }

    // The order: the amount comes from the price list.
    const form = page.getByTestId('create-invoice');
    await form.getByRole('textbox', { name: /^Buyer e-mail/ }).fill(`buyer.${run}@example.mn`);
    await form.getByRole('combobox', { name: /^Service/ }).selectOption('NFX');
    await form.getByLabel('Customer name', { exact: true }).fill('Бат-Эрдэнэ');
    await form.getByLabel('Chat subscriber ID', { exact: true }).fill(buyer);
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    await toast(page, 'Invoice Created');
    const paymentUrl = (await form.getByTestId('invoice-result').getByRole('link').getAttribute('href'))!;
    expect(await form.getByTestId('invoice-result').textContent()).toContain('₮35,000');
    const invoiceId = paymentUrl.split('/').at(-1)!;
    await screenshot(page, 'money-path-admin-invoice');

    // The payer, on a phone, with no session: the invoice pending, its QR and bank apps.
    const phone = await newContext(browser, widths.mobile);
    const payer = await phone.newPage();
    await payer.goto(new URL(paymentUrl, system.url).toString());
    const status = payer.getByTestId('invoice-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Pending');
    expect(await payer.getByTestId('invoice-amount').textContent()).toBe('₮35,000');
    await screenshot(payer, 'money-path-payment-pending');

    // Paid in the bank app (the QPay simulator calls our callback): the page says so within 3 s.
    const { qpayInvoiceId } = await api.get<{ qpayInvoiceId: string }>(`/api/qpay/invoice/${invoiceId}`);
    const paidAt = Date.now();
    await payAtQpay(qpayUrl, qpayInvoiceId);
    await expect.poll(() => status.textContent(), { timeout: 3_500, interval: 100 }).toBe('Paid');
    console.log(`payment page turned paid ${Date.now() - paidAt} ms after the bank's payment`);
    await screenshot(payer, 'money-path-payment-paid');
    await phone.close();

    // The key shows as assigned (held by the buyer) on /streaming-keys.
    let sold = '';
    await expect
      .poll(async () => {
        const orders = (await api.get<{ data: { invoiceId: string; key: string | null }[] }>('/api/streaming-invoices?status=PAID')).data;
        sold = orders.find((order) => order.invoiceId === invoiceId)?.key ?? '';
        return sold;
      }, { timeout: 10_000 })
      .toMatch(/-NFX$/);
    await openKeysTab(page, system.url);
    await page.getByLabel('Search by e-mail or key', { exact: true }).fill(sold);
    const card = page.locator(`[data-key="${sold}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain(buyer);
    await screenshot(page, 'money-path-key-assigned');

    // The ManyChat simulator accepted the key message for the buyer, once.
    await expect.poll(async () => (await chatMessages(buyer)).filter((message) => JSON.stringify(message.content).includes(sold)).length, { timeout: 10_000 }).toBe(1);
    const simulatorPage = await context.newPage();
    await simulatorPage.goto(`${manychatUrl}/__sim/`);
    await screenshot(simulatorPage, 'money-path-manychat-simulator');
    await context.close();
  });

  it('shows an order paid with no free key on /qpay, and leads to it on /streaming-keys', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/qpay' });
    const api = adminApi(page, system.url);
    for (const key of (await api.get<{ data: { id: number; held: boolean; service: string }[] }>('/api/streaming-keys')).data) {
      if (key.service === 'DPS' && !key.held) await api.patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000004' });
    }
    const order = await api.post<{ data: { invoiceId: string } }>('/api/streaming-invoices', { email: 'waiting@example.mn', service: 'DPS', duration: 1, amount: 30_000, subscriberId: '9000002' });
    const { qpayInvoiceId } = await api.get<{ qpayInvoiceId: string }>(`/api/qpay/invoice/${order.data.invoiceId}`);
    await payAtQpay(qpayUrl, qpayInvoiceId);

    await expect.poll(async () => (await api.get<{ data: { invoiceId: string }[] }>('/api/streaming-invoices?status=NEEDS_ATTENTION')).data.some((row) => row.invoiceId === order.data.invoiceId), { timeout: 15_000 }).toBe(true);
    const alert = page.getByTestId('orders-waiting');
    await page.reload();
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain(order.data.invoiceId);
    await screenshot(page, 'money-path-qpay-waiting');
    await page.getByRole('link', { name: 'Open Streaming Keys' }).click();
    await page.getByTestId('attention-invoices').locator(`[data-invoice="${order.data.invoiceId}"]`).waitFor();
    await context.close();
  });
});
