import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, payAtQpay, sidewaysOverflow, toast, type CreatedInvoice } from './qpay-support';
import { newContext, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

const POLL_MS = 3000;
const FACEBOOK_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/455.0.0.34.107;FBBV/565386017;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/17.4]';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let qpayUrl: string;
/** Made first, so its minute runs out while the other journeys run. */
let expiring: CreatedInvoice;

/** Invoices expire after a minute, and the reconciliation cancels expired ones every 2 s (the one way to a cancelled invoice that is not deleted). */
const EXPIRY_MS = 60_000;

beforeAll(async () => {
  suite = await startBrowserSuite('payment-page', { environment: { payments: { INVOICE_EXPIRY_MINUTES: '1', RECONCILE_EVERY_MS: '2000' } } });
  ({ system, browser } = suite);
  qpayUrl = system.simulators.qpay!.url;
  expiring = await newInvoice('Hulu 1 сар', 25_000);
});
afterAll(() => suite?.stop());

/** An admin makes the invoice (through the API, as /qpay or the chat would); the customer's browser never signs in. */
async function newInvoice(productName: string, amount: number): Promise<CreatedInvoice> {
  const { context, page } = await signedIn(browser, system.url);
  try {
    const created = await adminApi(page, system.url).createInvoice(productName, amount);
    expect(created.invoice.status).toBe('pending');
    expect(created.invoice.qpayInvoiceId).toBeTruthy();
    return created;
  } finally {
    await context.close();
  }
}

/**
 * When each finished call for this invoice left the page (epoch ms), by the browser's own record
 * (Resource Timing): not when the test heard of it, which a busy test process may learn late.
 */
function invoiceCallsLeft(page: Page, invoiceId: string): Promise<number[]> {
  return page.evaluate(
    (path) => performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.startsWith(path)).map((entry) => performance.timeOrigin + entry.startTime),
    `/api/qpay/invoice/${invoiceId}`,
  );
}

/** When each call for this invoice left the page, as the test hears of it (to count them). */
function invoiceCalls(page: Page, invoiceId: string): number[] {
  const times: number[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(`/api/qpay/invoice/${invoiceId}`)) times.push(Date.now());
  });
  return times;
}

describe('the public payment page', () => {
  it('on a 390 px phone: a pending invoice with its QR and bank apps turns paid within 3 s of the payment, and then stops asking', async () => {
    const created = await newInvoice('PUBG Mobile 660 UC', 38_000);
    const context = await newContext(browser, widths.mobile);
    const page = await context.newPage();
    const calls = invoiceCalls(page, created.invoiceId);
    const sessionCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/auth/')) sessionCalls.push(request.url());
    });

    await page.goto(`${system.url}/payment/${created.invoiceId}`);
    const status = page.getByTestId('invoice-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Pending');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('PUBG Mobile 660 UC');
    expect(await page.getByTestId('customer-name').textContent()).toBe('Бат-Эрдэнэ');
    expect(await page.getByTestId('invoice-amount').textContent()).toBe('₮38,000');
    expect(await page.getByTestId('invoice-id').textContent()).toBe(created.invoiceId);
    expect(await page.getByTestId('qpay-invoice-id').textContent()).toBe(created.invoice.qpayInvoiceId);
    expect(await page.getByTestId('created-at').textContent()).toMatch(/\d{4}/);
    // The QR is QPay's own PNG, decoded and drawn.
    const qr = page.getByRole('img', { name: `QR code of invoice ${created.invoiceId}` });
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    // QPay's bank apps, each a deep link carrying the invoice's QR text.
    const banks = page.getByTestId('bank-links').getByRole('link');
    expect(await banks.count()).toBeGreaterThan(5);
    expect(await banks.first().getAttribute('href')).toMatch(/^[a-z-]+:\/\/q\?qPay_QRcode=/i);
    expect(await page.getByRole('link', { name: 'Pay with Khan bank' }).isVisible()).toBe(true);
    expect(await page.getByText('Хаан банк', { exact: true }).isVisible()).toBe(true);
    // Public: no admin shell, no warning outside the in-app browsers, and no session asked for.
    expect(await page.locator('aside').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    expect(await page.getByTestId('in-app-warning').count()).toBe(0);
    expect(sessionCalls).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'payment-pending');

    // While pending it asks again and again, every 3 s and no more often (how soon each call
    // leaves is the browser's timers': a busy machine only spaces them further).
    await expect.poll(async () => (await invoiceCallsLeft(page, created.invoiceId)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const left = await invoiceCallsLeft(page, created.invoiceId);
    const gaps = left.slice(1).map((time, index) => Math.round(time - left[index]));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(POLL_MS - 300);

    // The customer pays in the bank app; QPay calls our callback before the simulator answers.
    const payment = await payAtQpay(qpayUrl, created.invoice.qpayInvoiceId!);
    expect(payment.callbacks).not.toBe('pending');
    expect((payment.callbacks as { status?: number }[])[0].status).toBe(200);
    const paidAt = Date.now();
    await expect.poll(() => status.textContent(), { timeout: 30_000, interval: 50 }).toBe('Paid');
    // Turned paid by its next call (or one already on its way when the payment came): within one
    // poll of the payment, with no reload and no second round.
    const afterPayment = (await invoiceCallsLeft(page, created.invoiceId)).filter((time) => time > paidAt);
    console.log(`payment page: paid on screen ${Date.now() - paidAt} ms after the callback was answered, by call ${afterPayment.length === 0 ? 'already on its way' : 'after it'}; poll gaps ${gaps.join(', ')} ms`);
    expect(afterPayment.length).toBeLessThanOrEqual(1);
    await page.getByTestId('paid-confirmation').waitFor();
    expect(await page.getByTestId('paid-at').textContent()).toMatch(/^Paid .*\d/);
    expect(await page.getByTestId('bank-links').count()).toBe(0);
    await screenshot(page, 'payment-paid');

    // Paid: no further calls, however long the customer stays.
    const callsWhenPaid = calls.length;
    await page.waitForTimeout(2 * POLL_MS + 1_000);
    expect(calls.length).toBe(callsWhenPaid);
    await context.close();
  });

  it("an unknown, malformed or deleted invoice shows 'Invoice Not Found' and is asked for once", async () => {
    const deleted = await newInvoice('Netflix 1 сар', 35_000);
    const { context: adminContext, page: adminPage } = await signedIn(browser, system.url);
    await adminApi(adminPage, system.url).delete(`/api/admin/invoices/${deleted.invoiceId}`);
    await adminContext.close();

    const context = await newContext(browser, widths.mobile);
    const page = await context.newPage();
    for (const invoiceId of ['INV-0000000000', 'not-an-invoice', deleted.invoiceId]) {
      const calls = invoiceCalls(page, invoiceId);
      await page.goto(`${system.url}/payment/${invoiceId}`);
      const notFound = page.getByTestId('invoice-not-found');
      await notFound.waitFor({ timeout: 15_000 });
      expect(await notFound.getByRole('heading', { level: 1 }).textContent()).toBe('Invoice Not Found');
      expect(await notFound.getByText("The invoice you're looking for doesn't exist or has been removed.").isVisible()).toBe(true);
      if (invoiceId === 'INV-0000000000') await screenshot(page, 'payment-not-found');
      await page.waitForTimeout(POLL_MS + 500);
      expect(calls.length).toBe(1);
    }
    await context.close();
  });

  it('inside the Facebook app: the warning comes first, and its copy button copies the link (the clipboard API, or the hidden text area when that is refused)', async () => {
    const created = await newInvoice('Disney+ 1 сар', 30_000);
    const link = `${system.url}/payment/${created.invoiceId}`;

    for (const clipboardApi of ['works', 'refused'] as const) {
      const context = await browser.newContext({ viewport: { width: widths.mobile, height: 844 }, userAgent: FACEBOOK_IOS });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.url });
      // Keeps the real clipboard to read it back; where refused, writeText rejects as in-app browsers do.
      await context.addInitScript((refused: boolean) => {
        const w = window as unknown as { realClipboard: Clipboard; copyCommands: string[] };
        w.realClipboard = navigator.clipboard;
        w.copyCommands = [];
        if (refused) Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('Write permission denied', 'NotAllowedError')) } });
        const execCommand = document.execCommand.bind(document);
        document.execCommand = (command: string, ...rest: [boolean?, string?]) => {
          if (command === 'copy') w.copyCommands.push([...document.querySelectorAll('textarea')].map((area) => area.value.slice(area.selectionStart, area.selectionEnd)).join(''));
          return execCommand(command, ...rest);
        };
      }, clipboardApi === 'refused');
      const page = await context.newPage();
      await page.goto(link);
      const warning = page.getByTestId('in-app-warning');
      await warning.waitFor({ timeout: 15_000 });
      await page.getByTestId('invoice-summary').waitFor();
      expect(await warning.getByText("Open this page in your phone's browser").isVisible()).toBe(true);
      expect(await page.getByTestId('page-link').textContent()).toBe(link);
      // First on the page: before the invoice, in the document and on screen.
      const main = page.getByRole('main');
      expect(await main.evaluate((element) => element.querySelector('[data-testid]')?.getAttribute('data-testid'))).toBe('in-app-warning');
      expect((await warning.boundingBox())!.y).toBeLessThan((await page.getByTestId('invoice-summary').boundingBox())!.y);
      if (clipboardApi === 'works') await screenshot(page, 'payment-in-app-browser');

      await page.evaluate(() => (window as unknown as { realClipboard: Clipboard }).realClipboard.writeText('something else'));
      await warning.getByRole('button', { name: 'Copy link' }).click();
      expect(await toast(page, 'Link copied')).toContain('Paste it into Safari or Chrome.');
      const copyCommands = await page.evaluate(() => (window as unknown as { copyCommands: string[] }).copyCommands);
      expect(copyCommands).toEqual(clipboardApi === 'refused' ? [link] : []);
      expect(await page.evaluate(() => (window as unknown as { realClipboard: Clipboard }).realClipboard.readText())).toBe(link);
      expect(await page.locator('textarea').count()).toBe(0); // the hidden text area is gone again
      await context.close();
    }
  });

  it('an invoice that expires unpaid turns cancelled on screen: no bank apps, its QR faded, and no more asking', async () => {
    const context = await newContext(browser, widths.mobile);
    const page = await context.newPage();
    const calls = invoiceCalls(page, expiring.invoiceId);
    await page.goto(`${system.url}/payment/${expiring.invoiceId}`);
    const status = page.getByTestId('invoice-status');
    await status.waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent(), { timeout: EXPIRY_MS + 15_000, interval: 500 }).toBe('Cancelled');
    await page.getByTestId('cancelled-notice').waitFor();
    expect(await page.getByTestId('bank-links').count()).toBe(0);
    expect(await page.getByTestId('paid-confirmation').count()).toBe(0);
    const qrOpacity = await page.getByRole('img', { name: `QR code of invoice ${expiring.invoiceId}` }).evaluate((image) => getComputedStyle(image).opacity);
    expect(Number(qrOpacity)).toBeLessThan(1);
    await screenshot(page, 'payment-cancelled');
    const callsWhenCancelled = calls.length;
    await page.waitForTimeout(POLL_MS + 1_000);
    expect(calls.length).toBe(callsWhenCancelled);
    await context.close();
  }, EXPIRY_MS + 60_000);
});
