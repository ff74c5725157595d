import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@bo/platform';
import { Alerts, BreakerReporter, breakerOpenRule, deadLettersRule, sweepAlerts, type AlertFinding, type AlertRule } from '@bo/platform/alerts';
import { createOutbox } from '@bo/platform/events';
import type { AlertChangeEvent } from '@bo/proto';
import { CircuitBreaker } from '@bo/platform/outside';
import { createPlatformTables, createTestSqlDatabase, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';

const logger = createLogger('alerts-test', 'silent');
const SCHEMA = 'alerts_test';
const MINUTE = 60_000;

/** A rule whose findings the test sets. */
function settableRule(name: string, forMs = 0): AlertRule & { findings: AlertFinding[]; fails: boolean } {
  const rule = {
    name,
    title: `Rule ${name}`,
    severity: 'warning' as const,
    forMs,
    findings: [] as AlertFinding[],
    fails: false,
    async evaluate() {
      if (rule.fails) throw new Error('the source is away');
      return rule.findings;
    },
  };
  return rule;
}

/** The alert changes a service published: its outbox's `<service>.alert.changed` events, oldest first. */
async function publishedChanges(database: TestSqlDatabase): Promise<AlertChangeEvent[]> {
  const rows = await database.db.$queryRawUnsafe<{ name: string; payload: AlertChangeEvent }[]>(`SELECT name, payload FROM ${SCHEMA}.outbox_events ORDER BY occurred_at, id`);
  return rows.filter((row) => row.name === `${row.payload.alert?.service}.alert.changed`).map((row) => row.payload);
}

describe('alerts: each condition pending → firing → resolved, once', () => {
  let database: TestSqlDatabase;
  let changes: AlertChangeEvent[] = [];
  let alerts: Alerts;
  let outbox: ReturnType<typeof createOutbox>;
  /** Evaluates, then reads what was published so far. */
  const evaluate = async (when: Date) => {
    const counts = await alerts.evaluate(when);
    changes = await publishedChanges(database);
    return counts;
  };
  const plain = settableRule('plain');
  const slow = settableRule('slow', 5 * MINUTE);
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 8, 0) + minutes * MINUTE);
  const firedOf = (rule: string) => changes.filter((change) => change.change === 'fired' && change.alert.rule === rule);
  const resolvedOf = (rule: string) => changes.filter((change) => change.change === 'resolved' && change.alert.rule === rule);

  beforeAll(async () => {
    database = await createTestSqlDatabase('alerts');
    await createPlatformTables(database.db, SCHEMA);
    outbox = createOutbox({ db: database.db, schema: SCHEMA });
    alerts = new Alerts({ service: 'scraper', schema: SCHEMA, db: database.db, logger, outbox });
    alerts.register([plain, slow]);
  });
  afterAll(() => database?.drop());

  it('fires a condition at the evaluation that finds it, keeps it firing without firing again, and resolves it once', async () => {
    plain.findings = [{ key: 'NFX', message: 'Netflix has 1 free key slot', details: { free: 1 } }];
    expect(await evaluate(at(0))).toMatchObject({ firing: 1, fired: 1, resolved: 0, failedRules: [] });
    plain.findings = [{ key: 'NFX', message: 'Netflix has 0 free key slots', details: { free: 0 } }];
    expect(await evaluate(at(1))).toMatchObject({ firing: 1, fired: 0, resolved: 0 });
    expect(await evaluate(at(2))).toMatchObject({ firing: 1, fired: 0 });
    expect(firedOf('plain')).toHaveLength(1);
    const [firing] = await alerts.list({ status: 'active', limit: 10 });
    // Brought up to date while it fires: the latest message and details, fired at its first evaluation.
    expect(firing).toMatchObject({ service: 'scraper', rule: 'plain', key: 'NFX', status: 'firing', message: 'Netflix has 0 free key slots', details: { free: 0 }, firedAt: at(0).toISOString(), lastSeenAt: at(2).toISOString(), resolvedAt: null });
    expect(firing.id).toMatch(/^scraper\.[0-9a-f-]{36}$/);
    // Published in the transaction that fired it, as the list showed it then.
    expect(changes).toEqual([{ alertId: firing.id, change: 'fired', revision: 1, alert: expect.objectContaining({ id: firing.id, status: 'firing', message: 'Netflix has 1 free key slot' }) }]);

    plain.findings = [];
    expect(await evaluate(at(3))).toMatchObject({ firing: 0, fired: 0, resolved: 1 });
    expect(await evaluate(at(4))).toMatchObject({ resolved: 0 });
    expect(resolvedOf('plain')).toHaveLength(1);
    expect(changes.at(-1)).toEqual({ alertId: firing.id, change: 'resolved', revision: 2, alert: expect.objectContaining({ status: 'resolved', resolvedAt: at(3).toISOString() }) });
    expect(await alerts.list({ status: 'active', limit: 10 })).toEqual([]);
    expect(await alerts.list({ status: 'resolved', limit: 10 })).toMatchObject([{ key: 'NFX', status: 'resolved', resolvedAt: at(3).toISOString() }]);

    // The condition again: a new episode, fired again once.
    plain.findings = [{ key: 'NFX', message: 'Netflix has 1 free key slot' }];
    await evaluate(at(5));
    expect(firedOf('plain')).toHaveLength(2);
    plain.findings = [];
    await evaluate(at(6));
  });

  it('holds a condition pending for its rule’s time before it fires, and lets one that clears before then go without a word', async () => {
    slow.findings = [{ key: 'woocommerce', message: 'failing' }];
    await evaluate(at(10));
    expect(await alerts.list({ status: 'pending', limit: 10 })).toMatchObject([{ rule: 'slow', status: 'pending', firedAt: null, pendingSince: at(10).toISOString() }]);
    await evaluate(at(14));
    expect(firedOf('slow')).toHaveLength(0);
    await evaluate(at(15));
    expect(firedOf('slow')).toHaveLength(1);
    expect((await alerts.list({ status: 'firing', limit: 10 }))[0]).toMatchObject({ rule: 'slow', firedAt: at(15).toISOString(), pendingSince: at(10).toISOString() });
    slow.findings = [];
    await evaluate(at(16));
    expect(resolvedOf('slow')).toHaveLength(1);

    // Pending, then cleared: no row, no change.
    slow.findings = [{ key: 'qpay', message: 'failing' }];
    await evaluate(at(20));
    slow.findings = [];
    await evaluate(at(21));
    expect(changes.filter((change) => change.alert.key === 'qpay')).toEqual([]);
    expect((await alerts.list({ status: 'resolved', limit: 50 })).filter((alert) => alert.key === 'qpay')).toEqual([]);
  });

  it('leaves a rule’s alerts as they were while the rule cannot be evaluated', async () => {
    plain.findings = [{ key: 'DPS', message: 'Disney+ has no free key slot' }];
    await evaluate(at(30));
    plain.fails = true;
    expect(await evaluate(at(31))).toMatchObject({ failedRules: ['plain'], resolved: 0 });
    expect(await alerts.list({ status: 'firing', limit: 10 })).toMatchObject([{ key: 'DPS' }]);
    plain.fails = false;
    plain.findings = [];
    await evaluate(at(32));
  });

  it('opens one episode when several replicas evaluate the same condition at once', async () => {
    const replicas = Array.from({ length: 4 }, () => {
      const replica = new Alerts({ service: 'scraper', schema: SCHEMA, db: database.db, logger, outbox });
      const shared = settableRule('shared');
      shared.findings = [{ key: '-', message: 'dead letters' }];
      replica.register([shared]);
      return replica;
    });
    await Promise.all(replicas.map((replica) => replica.evaluate(at(40))));
    await Promise.all(replicas.map((replica) => replica.evaluate(at(41))));
    changes = await publishedChanges(database);
    expect(changes.filter((change) => change.change === 'fired' && change.alert.rule === 'shared')).toHaveLength(1);
    expect((await alerts.list({ status: 'firing', limit: 50 })).filter((alert) => alert.rule === 'shared')).toHaveLength(1);
  });
});

describe('the rules every service has', () => {
  let database: TestSqlDatabase;
  beforeAll(async () => {
    database = await createTestSqlDatabase('alert_rules');
    await createPlatformTables(database.db, SCHEMA);
  });
  afterAll(() => database?.drop());

  it('dead letters: fires while any wait, resolves when none do', async () => {
    let waiting = 2;
    const alerts = new Alerts({ service: 'payments', schema: SCHEMA, db: database.db, logger, outbox: createOutbox({ db: database.db, schema: SCHEMA }) });
    alerts.register([deadLettersRule('payments', { deadLetterDepth: async () => waiting })]);
    expect(await alerts.evaluate()).toMatchObject({ fired: 1 });
    expect((await alerts.list({ status: 'firing', limit: 5 }))[0].message).toBe("2 events in the payments service's dead letters: replay or discard them");
    waiting = 0;
    expect(await alerts.evaluate()).toMatchObject({ resolved: 1 });
  });

  it('an outside system failing: fires once any process has reported its breaker open for 5 minutes, resolves when every report is closed or gone', async () => {
    const start = Date.now();
    let now = start - 10 * MINUTE;
    const breaker = () => new CircuitBreaker({ failuresToOpen: 1, openMs: 1_000 }, () => {}, () => now);
    const [shopA, shopB, qpayB] = [breaker(), breaker(), breaker()];
    const reporterA = new BreakerReporter({ schema: SCHEMA, db: database.db, owner: 'process-a', breakers: new Map([['woocommerce', shopA]]), logger });
    const reporterB = new BreakerReporter({ schema: SCHEMA, db: database.db, owner: 'process-b', breakers: new Map([['woocommerce', shopB], ['qpay', qpayB]]), logger });
    const alerts = new Alerts({ service: 'shop-sync', schema: SCHEMA, db: database.db, logger, outbox: createOutbox({ db: database.db, schema: SCHEMA }) });
    alerts.register([breakerOpenRule({ schema: SCHEMA, db: database.db })]);

    // Process A's shop breaker opened 10 minutes ago and has kept failing its probes (open, half-open, open again).
    shopA.failed();
    now += 2_000;
    shopA.admit();
    shopA.failed();
    expect(shopA.openSince).toBe(start - 10 * MINUTE);
    // Process B's opened 6 minutes ago; its QPay one 2 minutes ago: not yet an alert.
    now = start - 6 * MINUTE;
    shopB.failed();
    now = start - 2 * MINUTE;
    qpayB.failed();
    await Promise.all([reporterA.report(), reporterB.report()]);
    expect(await alerts.evaluate()).toMatchObject({ fired: 1, firing: 1 });
    const [alert] = await alerts.list({ status: 'firing', limit: 5 });
    expect(alert).toMatchObject({ rule: 'breaker-open', key: 'woocommerce', details: { system: 'woocommerce', processes: 2 } });
    expect(alert.message).toMatch(/^Calls to woocommerce have been failing since .+ \(its circuit breaker open for 10 min\)$/);

    // A's closes (a call got through): B's still counts, so it stays firing, not fired again.
    shopA.succeeded();
    await reporterA.report();
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, resolved: 0, firing: 1 });
    expect((await alerts.list({ status: 'firing', limit: 5 }))[0].details).toMatchObject({ processes: 1 });
    // B's process stops, and its reports go with it: resolved.
    await reporterB.stop();
    expect(await alerts.evaluate()).toMatchObject({ resolved: 1, firing: 0 });
    // A process killed without stopping leaves its report; once it is 90 s old it no longer counts.
    await database.db.$executeRawUnsafe(`INSERT INTO ${SCHEMA}.breaker_reports (owner, system, open_since, reported_at) VALUES ('killed', 'openai', now() - interval '20 minutes', now() - interval '2 minutes')`);
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, firing: 0 });
  });

  it('the hourly sweep forgets resolved alerts after 90 days and breaker reports nobody renewed for an hour, and nothing newer', async () => {
    const table = `${SCHEMA}.alerts`;
    const resolved = (id: string, daysAgo: number) =>
      database.db.$executeRawUnsafe(
        `INSERT INTO ${table} (id, rule, key, title, severity, status, message, details, pending_since, fired_at, resolved_at, last_seen_at)
         VALUES ($1::uuid, 'sweep', $1, 'Sweep', 'warning', 'resolved', 'gone', '{}', now() - $2 * interval '1 day', now() - $2 * interval '1 day', now() - $2 * interval '1 day', now() - $2 * interval '1 day')`,
        id, daysAgo,
      );
    await resolved('00000000-0000-4000-8000-000000000091', 91);
    await resolved('00000000-0000-4000-8000-000000000089', 89);
    await database.db.$executeRawUnsafe(`INSERT INTO ${SCHEMA}.breaker_reports (owner, system, open_since, reported_at) VALUES ('dead-long-ago', 'qpay', now() - interval '3 hours', now() - interval '2 hours')`);
    const before = await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${SCHEMA}.breaker_reports`);
    expect(await sweepAlerts(database.db, SCHEMA)).toEqual({ resolvedAlerts: 1, breakerReports: 1 });
    const left = await database.db.$queryRawUnsafe<{ key: string }[]>(`SELECT key FROM ${table} WHERE rule = 'sweep'`);
    expect(left.map((row) => row.key)).toEqual(['00000000-0000-4000-8000-000000000089']);
    const after = await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${SCHEMA}.breaker_reports`);
    expect(after[0]!.n).toBe(before[0]!.n - 1);
  });
});
