import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import type { TcpProxy } from '@bo/platform/testing/tcp-proxy';
import notifications, { SIMULATOR_MANYCHAT_TOKEN } from '@bo/notifications/service';
import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { buildQpaySimulator } from '@bo/sim-qpay';
import streamingKeys from '@bo/streaming-keys/service';
import payments, { qpaySimulatorSettings } from '../src/service';
import type { PaymentsService } from './system';

const BEFORE = 20;
const DURING = 300;
const AFTER = 30;
const PER_SECOND = 10;
const CUT_MS = 30_000;
const SERVICES = ['payments', 'streaming-keys', 'notifications'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 18 §4: PostgreSQL cut for 30 s while 10 payments a second flow through payments →
 * streaming-keys → notifications (QPay's simulator pays and calls back). Only this suite's
 * connections go through the proxy that is cut (other suites share the server): open ones are
 * dropped, new ones refused. Afterwards every payment has exactly one key and one key message,
 * nothing is parked or failed, and while the database was away the answers were 503 with
 * Retry-After, never 500. One file per transport, so they run side by side.
 */
export function describeDatabaseOutage(transport: 'rabbitmq' | 'embedded'): void {
  describe(`the money path across a 30-second PostgreSQL outage (${transport} bus)`, () => {
    let system: TestSystem;
    let database: TcpProxy;
    let paymentsService: PaymentsService;
    let qpayUrl = '';
    const qpay = buildQpaySimulator({ seed: false });
    const manychat = buildManyChatSimulator();
    const total = BEFORE + DURING + AFTER;
    const subscribers = Array.from({ length: total }, (_, i) => String(7_100_001 + i));

    const call = (service: (typeof SERVICES)[number], method: string, path: string, body?: unknown) => system.call(service, method, path, body);
    const order = async (subscriberId: string) => {
      const made = await call('streaming-keys', 'POST', '/api/streaming-invoices', { email: `buyer${subscriberId}@example.mn`, service: 'NFX', duration: 1, amount: 35_000, customerName: `Buyer ${subscriberId}`, subscriberId });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const invoice = await paymentsService.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: made.body.data.invoiceId } });
      return { subscriberId, invoiceId: invoice.invoiceId, qpayInvoiceId: invoice.qpayInvoiceId!, callbackToken: invoice.callbackToken };
    };
    /** The payer pays in the bank app; QPay calls our callback at once (and does not wait for it). */
    const pay = async (qpayInvoiceId: string) => {
      const response = await fetch(`${qpayUrl}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callback: 'get', wait: false }) });
      if (!response.ok) throw new Error(`pay: ${response.status} ${await response.text()}`);
    };

    beforeAll(async () => {
      await qpay.ready;
      qpayUrl = await listen(qpay.app);
      const manychatUrl = await listen(manychat.app);
      system = await startTestSystem(`db_outage_${transport}`, { services: [...SERVICES], transport, databaseProxy: true });
      database = system.databaseProxy!;
      // Callbacks refused during the outage are QPay's to retry; the reconciliation is the net that
      // catches them here (every 10 s: more often, its checks of every unpaid order load the machine).
      // Streaming orders only: pricing's price list is never asked, so its address may answer nothing.
      paymentsService = await system.start(payments as never, { ...qpaySimulatorSettings(qpayUrl), PUBLIC_URL: system.url('payments'), PRICING_URL: 'http://127.0.0.1:9', RECONCILE_EVERY_MS: '10000' });
      await system.start(streamingKeys as never, { PUBLIC_URL: system.url('payments') });
      await system.start(notifications as never, { MANYCHAT_API_URL: manychatUrl, MANYCHAT_API_TOKEN: SIMULATOR_MANYCHAT_TOKEN, MANYCHAT_TIMEOUT_MS: '3000', EXPIRY_CHECK_CRON: '0 0 1 1 *' });
      const now = new Date().toISOString();
      await fetch(`${manychatUrl}/__sim/subscribers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(subscribers.map((id) => ({ id, first_name: 'Buyer', last_interaction: now, last_seen: now }))) });
      for (let account = 0; account * 5 < total; account++) {
        const added = await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: `nfx.outage${account}@example.mn`, months: 1, profiles: 5, password: `Pool-Pass-${account}` });
        expect(added.status, JSON.stringify(added.body)).toBe(200);
      }
    }, 180_000);
    afterAll(async () => {
      database?.resume();
      await system?.stop();
      await qpay.app.close();
      await manychat.app.close();
    }, 60_000);

    it('gives every payment exactly one key and one key message, parks nothing, and answers 503 with Retry-After meanwhile', { timeout: 420_000 }, async () => {
      const ordering = Date.now();
      const orders: Awaited<ReturnType<typeof order>>[] = [];
      // Five admins at a time: the orders are the set-up, not what is measured.
      for (let i = 0; i < subscribers.length; i += 5) orders.push(...(await Promise.all(subscribers.slice(i, i + 5).map(order))));
      console.info(`[${transport}] ${total} orders made in ${((Date.now() - ordering) / 1000).toFixed(1)} s`);

      const started = Date.now();
      const paying: Promise<void>[] = [];
      let cutEndedAt = 0;
      let outage: Promise<{ callback: Response; adminRead: Awaited<ReturnType<typeof call>> }> | undefined;
      for (const [index, placed] of orders.entries()) {
        await sleep(Math.max(0, started + index * (1000 / PER_SECOND) - Date.now()));
        if (index === BEFORE) {
          database.refuse();
          database.cutAll();
          outage = (async () => {
            await sleep(5_000);
            // As QPay calls back and as an admin reads, while the database is away.
            const probe = orders[0];
            const callback = await fetch(`${system.url('payments')}/api/qpay/callback/${probe.invoiceId}?token=${probe.callbackToken}&qpay_payment_id=1`);
            const adminRead = await call('streaming-keys', 'GET', '/api/streaming-invoices');
            await sleep(CUT_MS - 5_000 - 100);
            database.resume();
            cutEndedAt = Date.now();
            return { callback, adminRead };
          })();
        }
        paying.push(pay(placed.qpayInvoiceId));
      }
      await Promise.all(paying);
      const during = await outage!;
      expect(during.callback.status).toBe(503);
      expect(during.callback.headers.get('retry-after')).toBe('5');
      expect(await during.callback.json()).toEqual({ error: expect.stringMatching(/is unavailable, try again shortly$/) });
      expect(during.adminRead.status).toBe(503);
      expect(during.adminRead.headers.get('retry-after')).toBe('5');

      const paid = await eventually(async () => {
        const { body } = await call('streaming-keys', 'GET', '/api/streaming-invoices');
        const done = (body?.data ?? []).filter((invoice: { status: string; keyId: number | null }) => invoice.status === 'PAID' && invoice.keyId !== null);
        return done.length === total ? done : null;
      }, 180_000, 'every streaming invoice paid with a key', 500); // the list is big: a look every half second
      const allKeyedAt = Date.now();
      expect(new Set(paid.map((invoice: { keyId: number }) => invoice.keyId)).size).toBe(total);
      const keyOf = new Map<string, string>(paid.map((invoice: { subscriberId: string; key: string }) => [invoice.subscriberId, invoice.key]));
      const keyMessages = (subscriber: string) => manychat.state.messages.filter((message) => message.subscriberId === subscriber && JSON.stringify(message.content).includes(keyOf.get(subscriber)!));

      await eventually(() => subscribers.every((subscriber) => keyMessages(subscriber).length >= 1), 120_000, 'a key message to every buyer');
      const lastKeyMessageAt = Math.max(...subscribers.map((subscriber) => Date.parse(keyMessages(subscriber)[0].at)));
      const after = (at: number) => `${((at - cutEndedAt) / 1000).toFixed(1)} s`;
      // How long the events took once payments had the payment: from the paid transition to the key message.
      const paidAt = new Map((await paymentsService.prisma.qpayInvoice.findMany({ select: { invoiceId: true, paidAt: true } })).map((row) => [row.invoiceId, row.paidAt!.getTime()]));
      const lags = orders.map((placed) => Date.parse(keyMessages(placed.subscriberId)[0].at) - paidAt.get(placed.invoiceId)!).sort((a, b) => a - b);
      console.info(
        `[${transport}] PostgreSQL cut ${CUT_MS / 1000} s under ${PER_SECOND} payments/s (${total} payments): every order keyed ${after(allKeyedAt)} and the last key message ${after(lastKeyMessageAt)} after the cut ended; ` +
          `the last paid transition ${after(Math.max(...paidAt.values()))} after it; paid → key message median ${(lags[lags.length >> 1] / 1000).toFixed(1)} s, max ${(lags[lags.length - 1] / 1000).toFixed(1)} s`,
      );
      await sleep(3_000); // a second delivery would land meanwhile
      for (const subscriber of subscribers) {
        expect(keyMessages(subscriber), `key messages to ${subscriber}`).toHaveLength(1);
        // The payment confirmation and the key: two messages, none twice.
        expect(manychat.state.messages.filter((message) => message.subscriberId === subscriber), `messages to ${subscriber}`).toHaveLength(2);
      }

      // QPay never saw a 500: its callbacks during the outage were told to come back.
      const answered = qpay.state.callbacks.map((callback) => callback.status);
      expect(answered.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect(answered.filter((status) => status === 503).length).toBeGreaterThan(0);

      for (const service of SERVICES) {
        expect((await call(service, 'GET', `/api/admin/events/${service}/dead-letters`)).body.data, `${service} dead letters`).toEqual([]);
        expect((await call(service, 'GET', `/api/admin/events/${service}/failed-outbox`)).body.data, `${service} failed outbox rows`).toEqual([]);
      }
      const effects = await paymentsService.prisma.$queryRawUnsafe<{ status: string; n: number }[]>(`SELECT status, count(*)::int AS n FROM notifications.outside_effects GROUP BY status`);
      expect(effects).toEqual([{ status: 'done', n: total * 2 }]);
    });
  });
}
