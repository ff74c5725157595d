import { createInvoice } from './invoices';
import { recordPayment } from './payments';
import type { QpayState } from './state';

const callback = (order: string) => `http://127.0.0.1:1/qpay/callback?order=${order}`;

/** A few invoices of a shop selling streaming subscriptions and game items, in MNT: open, paid, cancelled. */
export async function seedDefaultInvoices(state: QpayState): Promise<void> {
  const clientId = state.options.clients[0].clientId;
  const invoice_code = state.options.invoiceCodes[0];
  const create = async (env: 'production' | 'sandbox', no: string, description: string, amount: number) => {
    const created = await createInvoice(state, env, clientId, { invoice_code, sender_invoice_no: no, invoice_receiver_code: 'terminal', invoice_description: description, amount, callback_url: callback(no) });
    return state.invoices.get(created.invoice_id)!;
  };
  await create('production', 'ORD-1001', 'Netflix Premium 1 сар', 35_000);
  recordPayment(state, await create('production', 'ORD-1002', 'PUBG Mobile 660 UC', 38_000));
  (await create('production', 'ORD-1003', 'Spotify Premium 3 сар', 42_000)).status = 'CANCELED';
  await create('sandbox', 'ORD-T-2001', 'Mobile Legends 86 Diamonds', 6_500);
}
