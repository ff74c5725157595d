import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutsideSystem } from '@bo/platform/outside';
import { listen } from '@bo/sim-kit';
import { buildQpaySimulator, qpayBases, qpayFaultRules } from '@bo/sim-qpay';
import { QpayClient, QpayError, qpaySystem, type QpayInvoiceRequest } from '../src/clients/qpay';

/** The QPay client on the platform's outside client, against the QPay simulator's faults (external-apis.md §1). */
describe('QPay client', () => {
  const sim = buildQpaySimulator({ seed: false });
  let baseUrl: string;
  let registry: Registry;
  let client: QpayClient;
  const invoice = (no: string): QpayInvoiceRequest => ({
    invoice_code: 'TEST_INVOICE', sender_invoice_no: no, invoice_receiver_code: 'terminal', invoice_description: 'Netflix Premium 1 сар', amount: 35_000, callback_url: 'http://127.0.0.1:1/callback',
  });
  const creates = () => sim.journal.list().filter((entry) => entry.method === 'POST' && entry.url === `${qpayBases.sandbox}/invoice`);

  beforeAll(async () => {
    baseUrl = `${await listen(sim.app)}${qpayBases.sandbox}`;
  });
  afterAll(() => sim.app.close());
  beforeEach(async () => {
    await sim.ready;
    sim.faults.clear();
    sim.journal.clear();
    registry = new Registry();
    const system = new OutsideSystem({ ...qpaySystem({ environment: 'sandbox', baseUrl, timeoutMs: 1_000 }), retry: { retries: 2, baseDelayMs: 10 }, registry });
    client = new QpayClient(system, { clientId: 'TEST_MERCHANT', clientSecret: '123456' });
  });

  it('sends a create again when QPay says it did nothing (SYSTEM_BUSY): one invoice', async () => {
    for (const rule of qpayFaultRules({ kind: 'system_busy', route: '/invoice', env: 'sandbox', method: 'POST', times: 1 })) sim.faults.add(rule);
    const made = await client.createInvoice(invoice('BUSY-1'));
    expect(made.invoice_id).toBeTruthy();
    expect(creates().map((entry) => entry.status).reverse()).toEqual([500, 200]);
    expect([...sim.state.invoices.values()].filter((one) => one.senderInvoiceNo === 'BUSY-1')).toHaveLength(1);
  });

  it('never sends a create again after a gateway page or no answer: QPay may have made it', async () => {
    for (const rule of qpayFaultRules({ kind: 'bad_gateway_html', route: '/invoice', env: 'sandbox', method: 'POST', times: 1 })) sim.faults.add(rule);
    const failed = await client.createInvoice(invoice('HTML-1')).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(QpayError);
    expect(failed).toMatchObject({ status: 502, code: 'NOT_JSON', retryable: false, ambiguous: true });
    expect(creates()).toHaveLength(1);

    // A read is safe to repeat: the same page on a payment check is tried again.
    for (const rule of qpayFaultRules({ kind: 'bad_gateway_html', route: '/invoice', env: 'sandbox', method: 'GET', times: 1 })) sim.faults.add(rule);
    const made = await client.createInvoice(invoice('HTML-2'));
    expect((await client.getInvoice(made.invoice_id)).invoice_status).toBe('OPEN');

    const text = await registry.getSingleMetricAsString('outside_call_duration_seconds');
    expect(text).toMatch(/outside_call_duration_seconds_count\{system="qpay-sandbox",operation="createInvoice",outcome="server_error"\} 1/);
    expect(text).toMatch(/outside_call_duration_seconds_count\{system="qpay-sandbox",operation="getInvoice",outcome="server_error"\} 1/);
    expect(text).toMatch(/outside_call_duration_seconds_count\{system="qpay-sandbox",operation="getInvoice",outcome="ok"\} 1/);
    expect(text).toMatch(/outside_call_duration_seconds_count\{system="qpay-sandbox",operation="token",outcome="ok"\} 1/);
  });
});
