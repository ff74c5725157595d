import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_WINDOW_MS, CALLBACK_PER_ADDRESS, WEBHOOK_PER_ADDRESS, WEBHOOK_PER_SUBSCRIBER } from '../src/operations/door-limits';
import { chatHeaders, newInvoice, startPaymentsSystem, type PaymentsSystem } from './system';

const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * The payment doors' rate limits are counted in Redis, so they hold across replicas: here two
 * payments processes (each its own Redis connection and memory) serve the same doors, and a
 * caller alternating between them gets no more than one process's ceiling.
 */
describe('the payment doors are rate-limited across two payments processes sharing Redis', () => {
  let it_: PaymentsSystem;
  let replicaUrl: string;

  /** The i-th request goes to the first process when i is even, to the second when it is odd. */
  const post = async (i: number, path: string, body: unknown, headers: Record<string, string>) => {
    const base = i % 2 === 0 ? it_.system.url('payments') : replicaUrl;
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error?: string } };
  };
  /** `count` requests, ten at a time, alternating between the two processes. */
  const burst = async (count: number, send: (i: number) => Promise<{ status: number }>) => {
    const statuses: number[] = [];
    for (let start = 0; start < count; start += 10) statuses.push(...(await Promise.all(Array.from({ length: Math.min(10, count - start) }, (_, k) => send(start + k)))).map((reply) => reply.status));
    return statuses;
  };

  beforeAll(async () => {
    it_ = await startPaymentsSystem('payments_door_limits');
    replicaUrl = (await it_.system.replica('payments')).url;
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it(`lets one address make ${WEBHOOK_PER_ADDRESS} chat webhook requests a minute across both, then answers 429 with Retry-After; another address is not held back`, async () => {
    const address = newAddress();
    // Without the secret: each is a 401, yet each counts (the limit comes first, before the body is read).
    const statuses = await burst(WEBHOOK_PER_ADDRESS, (i) => post(i, '/api/qpay/webhook', { user_id: '1' }, { 'x-forwarded-for': address }));
    expect(statuses.every((status) => status === 401)).toBe(true);
    for (const i of [0, 1]) {
      const limited = await post(i, '/api/qpay/webhook', { user_id: '1' }, chatHeaders(address));
      expect(limited).toMatchObject({ status: 429, retryAfter: String(DOOR_WINDOW_MS / 1000), body: { error: `Too many payment requests from this address: at most ${WEBHOOK_PER_ADDRESS} a minute. Try again in 60 seconds.` } });
    }
    expect((await post(0, '/api/qpay/webhook', { user_id: '1' }, { 'x-forwarded-for': newAddress() })).status).toBe(401);
  });

  it(`lets one chat subscriber make ${WEBHOOK_PER_SUBSCRIBER} requests a minute across both, from any address`, async () => {
    const subscriber = String(randomInt(100_000_000, 999_999_999));
    const request = (i: number) => ({ user_id: subscriber, custom_fields: { invoice_code: 'Steam Wallet $20', invoice_id: `MC-L-${i}`, amount: '72000' } });
    // No price list runs here: each request that gets past the limit is a 503, and counted.
    const statuses = await burst(WEBHOOK_PER_SUBSCRIBER, (i) => post(i, '/api/qpay/webhook', request(i), chatHeaders(newAddress())));
    expect(statuses.every((status) => status === 503)).toBe(true);
    const limited = await post(1, '/api/qpay/webhook', request(99), chatHeaders(newAddress()));
    expect(limited).toMatchObject({ status: 429, retryAfter: '60', body: { error: `Too many payment requests for subscriber ${subscriber}: at most ${WEBHOOK_PER_SUBSCRIBER} a minute. Try again in 60 seconds.` } });
    // A rate-limited request leaves no log row (a flood costs nothing).
    expect(await it_.payments.prisma.qpayWebhookLog.count({ where: { errorMessage: { startsWith: 'Too many' } } })).toBe(0);
  });

  it(`lets one address send ${CALLBACK_PER_ADDRESS} legacy payment notices a minute across both, then answers 429`, async () => {
    const address = newAddress();
    const statuses = await burst(CALLBACK_PER_ADDRESS, (i) => post(i, '/api/qpay/callback', { invoice_id: `INV-UNKNOWN${String(i).padStart(4, '0')}` }, { 'x-forwarded-for': address }));
    expect(statuses.every((status) => status === 404)).toBe(true);
    const limited = await post(1, '/api/qpay/callback', { invoice_id: 'INV-UNKNOWN9999' }, { 'x-forwarded-for': address });
    expect(limited).toMatchObject({ status: 429, retryAfter: '60', body: { error: `Too many payment notices from this address: at most ${CALLBACK_PER_ADDRESS} a minute. Try again in 60 seconds.` } });
    // Unknown ids cost QPay nothing.
    expect(it_.qpayCalls('POST', '/payment/check')).toBe(0);
  });

  it(`takes ${CALLBACK_PER_ADDRESS} callbacks a minute for unknown invoices from one address (150 at once, 60 KB each, across both), refuses the rest 429 unlogged, and always takes QPay's own for our invoices`, async () => {
    // The flood comes from QPay's own address here (the simulator calls from 127.0.0.1): what is
    // refused is what is not ours, never the address.
    const qpayAddress = '127.0.0.1';
    const note = 'n'.repeat(60_000);
    const [duringFlood, afterFlood] = [await newInvoice(it_), await newInvoice(it_)];
    const flood = Array.from({ length: 150 }, (_, i) => post(i, `/api/qpay/callback/INV-FLOOD${String(i).padStart(5, '0')}?token=guessed`, { payment_id: String(i), note }, { 'x-forwarded-for': qpayAddress }));
    const [replies, paidDuring] = await Promise.all([Promise.all(flood), it_.pay(duringFlood, { callback: 'get' }) as Promise<{ callbacks: { status?: number }[] }>]);

    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(CALLBACK_PER_ADDRESS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150 - CALLBACK_PER_ADDRESS);
    for (const refused of replies.filter((reply) => reply.status === 429)) {
      expect(refused).toMatchObject({ retryAfter: '60', body: { error: `Too many payment notices from this address: at most ${CALLBACK_PER_ADDRESS} a minute. Try again in 60 seconds.` } });
    }
    // Only the ones taken are in the callback log; a refused one costs no row.
    expect(await it_.payments.prisma.qpayWebhookLog.count({ where: { type: 'callback', errorMessage: { startsWith: 'Unknown invoice INV-FLOOD' } } })).toBe(CALLBACK_PER_ADDRESS);

    // QPay's callbacks, during the flood and after it (the address's budget spent), are taken and pay.
    expect(paidDuring.callbacks.map((callback) => callback.status)).toEqual([200]);
    const paidAfter = (await it_.pay(afterFlood, { callback: 'get' })) as { callbacks: { status?: number }[] };
    expect(paidAfter.callbacks.map((callback) => callback.status)).toEqual([200]);
    for (const invoiceId of [duringFlood, afterFlood]) expect((await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } })).status).toBe('paid');
    // A known invoice with a wrong token is not QPay's either: refused while the budget is spent.
    expect((await post(0, `/api/qpay/callback/${afterFlood}?token=guessed`, { payment_id: '1' }, { 'x-forwarded-for': qpayAddress })).status).toBe(429);
    expect((await post(1, `/api/qpay/callback/INV-FLOOD99999?token=guessed`, { payment_id: '1' }, { 'x-forwarded-for': newAddress() })).status).toBe(404);
    // Each door has its budget: the legacy one still takes this address's notices, and an id the route refuses is told why.
    expect((await post(0, '/api/qpay/callback', { invoice_id: 'INV-UNKNOWN0001' }, { 'x-forwarded-for': qpayAddress })).status).toBe(404);
    expect(await post(0, '/api/qpay/callback/INV-%00?token=guessed', { payment_id: '1' }, { 'x-forwarded-for': qpayAddress })).toMatchObject({ status: 400, body: { error: 'Invalid params: invoiceId: must not contain a NUL character (U+0000)' } });
  });
});
