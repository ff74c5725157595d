import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { signedAs } from '@bo/platform/testing/services';
import type { AuditEntryView } from '@bo/proto';
import { eventually, listPrice, paidEnvelope, startKeysSystem, type KeysSystem } from './system';

/** An admin's request as the gateway forwards it: their signed identity and the address the gateway resolved. */
const adminFrom = (email: string, userId: string, address: string) => ({
  ...signedAs({ kind: 'admin', userId, email, isAdmin: true, keyId: null }),
  'x-forwarded-for': address,
});
const ana = adminFrom('ana@example.mn', 'u-ana', '203.0.113.7');
const bold = adminFrom('bold@example.mn', 'u-bold', '198.51.100.23');

/**
 * The audit log (docs/audit-log.md) on two real services: every row an admin's request changes is
 * one entry, written in the change's transaction by the table's trigger, naming the admin, their
 * address and request, with the row before and after and its secrets masked; nobody else's writes are
 * entries, and no statement can change or remove one.
 */
describe('audit log', () => {
  let k: KeysSystem;
  const entries = async (query: Record<string, string> = {}, service: 'streaming-keys' | 'payments' = 'streaming-keys'): Promise<AuditEntryView[]> => {
    const reply = await k.system.call(service, 'GET', `/internal/${service}/audit?${new URLSearchParams({ limit: '200', ...query })}`, undefined, asService('gateway'));
    expect(reply.status).toBe(200);
    return reply.body.data;
  };

  beforeAll(async () => {
    k = await startKeysSystem('streaming_audit');
  }, 60_000);
  afterAll(() => k?.stop());

  it("records each admin's writes made at once with who, from where and which request, and nothing for a refused one", async () => {
    // Two admins, twenty writes at once on the same pool of connections.
    const writes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        k.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: (i % 10) + 1, price: 30_000 + i }, i < 10 ? ana : bold),
      ),
    );
    // Each duration twice: ten rows made, ten refused as duplicates (rolled back: no entry).
    expect(writes.map((reply) => reply.status).sort()).toEqual([...Array(10).fill(200), ...Array(10).fill(409)]);
    const made = await entries({ entity: 'streaming_pricing' });
    expect(made).toHaveLength(10);
    const rows = await k.keys.prisma.streamingPricing.findMany();
    for (const row of rows) {
      const entry = made.find((candidate) => candidate.entityId === String(row.id))!;
      const reply = writes.find((candidate) => candidate.status === 200 && candidate.body.data.id === row.id)!;
      const by = writes.indexOf(reply) < 10 ? { actorName: 'ana@example.mn', actorId: 'u-ana', address: '203.0.113.7' } : { actorName: 'bold@example.mn', actorId: 'u-bold', address: '198.51.100.23' };
      expect(entry).toMatchObject({ ...by, service: 'streaming-keys', action: 'create', request: 'POST /api/streaming/pricing', before: null, after: { id: row.id, service: 'NFX', duration: row.duration, price: row.price } });
      expect(entry.correlationId).toBe(reply.headers.get('x-correlation-id'));
    }
    expect(new Set(made.map((entry) => entry.id)).size).toBe(10);
  });

  it('records an edit with the row before and after, and a delete with the row it removed', async () => {
    const row = await k.keys.prisma.streamingPricing.findFirstOrThrow({ where: { duration: 1 } });
    expect((await k.call('PUT', `/api/streaming/pricing/${row.id}`, { price: 31_500 }, bold)).status).toBe(200);
    expect((await k.call('DELETE', `/api/streaming/pricing/${row.id}`, undefined, ana)).status).toBe(200);
    const [deleted, edited] = await entries({ entity: 'streaming_pricing', limit: '2' });
    expect(edited).toMatchObject({ action: 'update', actorName: 'bold@example.mn', request: 'PUT /api/streaming/pricing/:id', entityId: String(row.id), before: { price: row.price }, after: { price: 31_500 } });
    expect(deleted).toMatchObject({ action: 'delete', actorName: 'ana@example.mn', request: 'DELETE /api/streaming/pricing/:id', before: { id: row.id, price: 31_500 }, after: null });
    // The filters: by actor, action and time.
    expect((await entries({ actor: 'u-bold', action: 'update' })).map((entry) => entry.id)).toEqual([edited.id]);
    expect(await entries({ actor: 'nobody@example.mn' })).toEqual([]);
    expect((await entries({ from: edited.at, action: 'delete' })).map((entry) => entry.id)).toEqual([deleted.id]);
    expect(await entries({ to: '2020-01-01T00:00:00Z' })).toEqual([]);
  });

  it('masks secrets: a password is never in an entry, only that it was set or changed', async () => {
    const account = { service: 'NFX', email: 'nfx.audit@example.mn' };
    // Keys added with the account's password: the key itself (a customer's sign-in) masked too.
    expect((await k.call('POST', '/api/streaming-keys', { ...account, months: 1, profiles: 2, password: 'First-Pass-2026' }, bold)).status).toBe(200);
    const keys = await entries({ entity: 'streaming_keys' });
    expect(keys).toHaveLength(2);
    for (const entry of keys) expect(entry.after).toMatchObject({ email: account.email, key: '••••' });
    expect((await k.call('PUT', '/api/streaming-accounts/password', { ...account, password: 'Second-Pass-2026' }, ana)).status).toBe(200);
    // Newest first: ana's change, then bold's (the account made with the keys, its password sealed in).
    const [changed, ...made] = await entries({ entity: 'streaming_accounts' });
    expect(changed).toMatchObject({ action: 'update', actorName: 'ana@example.mn', before: { password: '••••' }, after: { password: '•••• (changed)' } });
    expect(made.at(-1)).toMatchObject({ action: 'create', actorName: 'bold@example.mn', after: { email: account.email } });
    for (const entry of made) expect(entry.actorName).toBe('bold@example.mn');

    // payments: QPay's client secret and the webhook secret.
    const settings = { qpayClientId: 'AUDIT_MERCHANT', qpayClientSecret: 'client-secret-AUDIT', qpayInvoiceCode: 'AUDIT_INVOICE', qpayEnvironment: 'sandbox', enabled: false };
    expect((await k.system.call('payments', 'POST', '/api/qpay/settings', settings, ana)).status).toBe(200);
    const [saved] = await entries({ entity: 'qpay_settings' }, 'payments');
    expect(saved).toMatchObject({ service: 'payments', actorName: 'ana@example.mn', request: 'POST /api/qpay/settings', after: { qpay_client_id: 'AUDIT_MERCHANT', qpay_client_secret: expect.stringMatching(/^•••• ?/) } });
    const everything = JSON.stringify([...(await entries()), ...(await entries({}, 'payments'))]);
    for (const secret of ['First-Pass-2026', 'Second-Pass-2026', 'client-secret-AUDIT']) expect(everything).not.toContain(secret);
  });

  it("writes nothing for a write that is not an admin's request: an order taken from the bus", async () => {
    const before = (await entries()).length;
    await listPrice({ call: (method, path, body) => k.call(method, path, body, bold) }, 'DPS', 1, 25_000);
    expect(await entries()).toHaveLength(before + 1);
    // A paid order taken from the bus gives a key: the consumer's writes are nobody's request.
    await k.system.publish(paidEnvelope('INV-AUDIT00001', { kind: 'streaming', serviceCode: 'DPS', months: 1, email: 'audit.buyer@example.mn', streamingInvoiceId: null }, { amount: 25_000 }));
    await eventually(async () => (await k.keys.prisma.streamingInvoice.count({ where: { invoiceId: 'INV-AUDIT00001' } })) === 1);
    expect(await entries()).toHaveLength(before + 1);
  });

  it('pages by a cursor that loses and repeats nothing, however many entries share a millisecond', async () => {
    const at = '2026-01-02T03:04:05.678Z';
    for (let i = 0; i < 7; i++) {
      await k.keys.prisma.$executeRawUnsafe(
        `INSERT INTO streaming_keys.admin_logs (at, actor_name, request, action, entity, entity_id) VALUES ($1, 'pager@example.mn', 'POST /test', 'create', 'paging', $2)`,
        new Date(at), String(i),
      );
    }
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await entries({ actor: 'pager@example.mn', limit: '3', ...(before ? { before } : {}) });
      if (page.length === 0) break;
      seen.push(...page.map((entry) => entry.entityId!));
      const last = page[page.length - 1]!;
      before = `${last.at}~${last.service}~${last.id.split('.')[1]}`;
    }
    expect(seen).toEqual(['6', '5', '4', '3', '2', '1', '0']);
    expect((await k.system.call('streaming-keys', 'GET', '/internal/streaming-keys/audit?before=yesterday', undefined, asService('gateway'))).status).toBe(400);
  });

  it('is append-only: no statement of the app edits, deletes or empties an entry', async () => {
    const [latest] = await entries();
    const id = latest.id.split('.')[1];
    for (const statement of [`UPDATE streaming_keys.admin_logs SET actor_name = 'someone else' WHERE id = ${id}`, `DELETE FROM streaming_keys.admin_logs WHERE id = ${id}`, 'TRUNCATE streaming_keys.admin_logs']) {
      await expect(k.keys.prisma.$executeRawUnsafe(statement)).rejects.toThrow(/append-only/);
    }
    expect((await entries())[0]).toEqual(latest);
  });
});
