import type { CallbackDelivery, CallbackMethod, Invoice, Payment, QpayState } from './state';

export interface CallbackPlan {
  method: CallbackMethod;
  /** How many times the same callback is sent (duplicates). */
  copies: number;
  delayMs: number;
}

/** The merchant's URL with its own query kept and qpay_payment_id appended, as integrators observe. */
export function callbackGetUrl(callbackUrl: string, paymentId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.append('qpay_payment_id', paymentId);
  return url.toString();
}

async function deliverOnce(state: QpayState, invoice: Invoice, payment: Payment, method: 'get' | 'post', copy: number): Promise<CallbackDelivery> {
  const url = method === 'get' ? callbackGetUrl(invoice.callbackUrl, payment.paymentId) : invoice.callbackUrl;
  const started = Date.now();
  const base = { invoiceId: invoice.invoiceId, paymentId: payment.paymentId, method: method === 'get' ? ('GET' as const) : ('POST' as const), url, copy, at: new Date().toISOString() };
  try {
    const response = await fetch(url, {
      method: base.method,
      signal: AbortSignal.timeout(state.options.callbackTimeoutMs),
      ...(method === 'post' && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payment_id: payment.paymentId, object_type: 'INVOICE', object_id: invoice.invoiceId }),
      }),
    });
    const body = (await response.text()).slice(0, 2000);
    return state.recordCallback({ ...base, status: response.status, body, ms: Date.now() - started });
  } catch (error) {
    return state.recordCallback({ ...base, error: (error as Error).message, ms: Date.now() - started });
  }
}

/** Calls the callback (no signature, no auth — like QPay) after the delay, `copies` times in a row. */
export async function deliverCallbacks(state: QpayState, invoice: Invoice, payment: Payment, plan: CallbackPlan): Promise<CallbackDelivery[]> {
  if (plan.method === 'none') return [];
  if (plan.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
  const deliveries: CallbackDelivery[] = [];
  for (let copy = 1; copy <= plan.copies; copy++) deliveries.push(await deliverOnce(state, invoice, payment, plan.method, copy));
  return deliveries;
}
