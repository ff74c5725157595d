import type { APIResponse, Page } from 'playwright-core';

/** What POST /api/qpay/create-invoice answers (the fields these suites read). */
export interface CreatedInvoice {
  invoiceId: string;
  paymentUrl: string;
  invoice: { qpayInvoiceId: string | null; status: string; amount: number; description: string };
}

async function jsonOf(response: APIResponse, what: string): Promise<any> {
  if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/**
 * The gateway's API with a signed-in page's session and CSRF token: test set-up and checks, never
 * the thing under test. The token is asked for once: parallel first asks would each give the
 * session a new CSRF secret, and all but the last token would be refused.
 */
export function adminApi(page: Page, appUrl: string) {
  let token: Promise<string> | null = null;
  const csrf = (refresh = false) => {
    if (refresh || !token) token = page.request.get(`${appUrl}/api/auth/csrf`).then(async (response) => ((await response.json()) as { token: string }).token);
    return token;
  };
  const write = async (method: 'post' | 'put' | 'patch' | 'delete', path: string, data?: unknown) => {
    const send = async (refresh: boolean) => page.request[method](`${appUrl}${path}`, { data, headers: { 'x-csrf-token': await csrf(refresh) } });
    let response = await send(false);
    // The page itself may have started the session's CSRF secret anew meanwhile.
    if (response.status() === 403) response = await send(true);
    return jsonOf(response, `${method.toUpperCase()} ${path}`);
  };
  return {
    get: async <T>(path: string): Promise<T> => jsonOf(await page.request.get(`${appUrl}${path}`), `GET ${path}`),
    post: <T>(path: string, data?: unknown): Promise<T> => write('post', path, data),
    put: <T>(path: string, data?: unknown): Promise<T> => write('put', path, data),
    patch: <T>(path: string, data?: unknown): Promise<T> => write('patch', path, data),
    delete: (path: string) => write('delete', path),
    /** A custom payment's invoice, made at the QPay simulator through the payments service. */
    createInvoice: (productName: string, amount: number, customerName = 'Бат-Эрдэнэ'): Promise<CreatedInvoice> =>
      write('post', '/api/qpay/create-invoice', { customer_name: customerName, product_name: productName, amount }),
  };
}

export interface SimulatedPayment {
  payment_id: string;
  amount: number;
  callbacks: { status?: number; error?: string }[] | 'pending';
}

/**
 * Pays an invoice in the QPay simulator as a bank app would. By default the answer comes once its
 * callback reached our server; `callback: 'none'` is a payment whose callback was lost, `amount` a
 * partial or excess payment, `type: 'CARD'` a card payment (the kind QPay can refund).
 */
export async function payAtQpay(qpayUrl: string, qpayInvoiceId: string, plan: { amount?: number; callback?: 'get' | 'post' | 'none'; type?: 'P2P' | 'CARD' } = {}): Promise<SimulatedPayment> {
  const response = await fetch(`${qpayUrl}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(plan) });
  if (!response.ok) throw new Error(`the QPay simulator refused the payment: ${response.status} ${await response.text()}`);
  return (await response.json()) as SimulatedPayment;
}

/** The page may not scroll sideways at 390 px: wide content scrolls inside its own box. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The toast on screen (one at a time) with this title: its whole text, title then description. */
export async function toast(page: Page, title: string): Promise<string> {
  const shown = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: title });
  await shown.waitFor({ timeout: 15_000 });
  return (await shown.textContent()) ?? '';
}
