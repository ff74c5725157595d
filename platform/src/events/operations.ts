/** What operators and probes need from a service's messaging: sweeping old rows, metrics, readiness. */
import { Gauge, type Registry } from 'prom-client';
import type { ReadinessCheck } from '../http/service-app';
import { outboxDefaults } from './outbox';
import { quoteSchema, type SqlClient } from './sql';
import type { EventTransport } from './transport';

export interface SweepSettings {
  /** Sent outbox rows are deleted after this. Default 7 days. */
  sentRetentionMs?: number;
  /**
   * Inbox rows (the dedupe memory) are deleted after this. It must exceed the longest time a
   * duplicate can still arrive: an outbox row is re-published until it is `failed` (failAfterMs,
   * default 24 h) and a dead letter can be replayed later, so the default is 30 days and anything
   * under twice the outbox's failAfterMs is refused.
   */
  inboxRetentionMs?: number;
  /** Done outside effects are deleted after this. Default 30 days. */
  effectsRetentionMs?: number;
  /** The relay's failAfterMs, if changed from its default. */
  outboxFailAfterMs?: number;
}

const day = 24 * 3600_000;
export const sweepDefaults = { sentRetentionMs: 7 * day, inboxRetentionMs: 30 * day, effectsRetentionMs: 30 * day } as const;

/**
 * Deletes sent outbox rows, old inbox rows and done outside effects of one service schema;
 * returns how many of each. Applied revisions are kept (one row per entity, the order guard).
 * Run it as a periodic job.
 */
export async function sweepMessaging(db: SqlClient, schema: string, settings: SweepSettings = {}): Promise<{ outbox: number; inbox: number; effects: number }> {
  const { sentRetentionMs, inboxRetentionMs, effectsRetentionMs } = { ...sweepDefaults, ...settings };
  const failAfterMs = settings.outboxFailAfterMs ?? outboxDefaults.failAfterMs;
  if (inboxRetentionMs < 2 * failAfterMs) {
    throw new Error(`inboxRetentionMs (${inboxRetentionMs}) must be at least twice the outbox failAfterMs (${failAfterMs}): a duplicate could arrive after its inbox row is gone`);
  }
  const s = quoteSchema(schema);
  const ms = `* interval '1 millisecond'`;
  return {
    outbox: await db.$executeRawUnsafe(`DELETE FROM ${s}.outbox_events WHERE status = 'sent' AND sent_at < now() - $1::bigint ${ms}`, sentRetentionMs),
    inbox: await db.$executeRawUnsafe(`DELETE FROM ${s}.inbox_events WHERE processed_at < now() - $1::bigint ${ms}`, inboxRetentionMs),
    effects: await db.$executeRawUnsafe(`DELETE FROM ${s}.outside_effects WHERE status = 'done' AND done_at < now() - $1::bigint ${ms}`, effectsRetentionMs),
  };
}

/**
 * Registers the messaging gauges of one service on `registry`, read on each scrape:
 * events_outbox_pending, events_outbox_oldest_pending_seconds, events_outbox_failed,
 * events_dead_letters, events_outside_effects_failed, events_transport_connected, events_consumers_up.
 */
export function registerEventMetrics(registry: Registry, options: { service: string; schema: string; db: SqlClient; transport: EventTransport }): void {
  const s = quoteSchema(options.schema);
  const scalar = async (sql: string) => Number((await options.db.$queryRawUnsafe<Array<{ value: unknown }>>(sql))[0]?.value ?? 0);
  const gauge = (name: string, help: string, read: () => Promise<number> | number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        // A failed read must not fail the whole scrape: the gauge shows NaN until it reads again.
        this.set(await Promise.resolve().then(read).catch(() => Number.NaN));
      },
    });
  gauge('events_outbox_pending', 'Outbox rows not yet published', () => scalar(`SELECT count(*) AS value FROM ${s}.outbox_events WHERE status = 'pending'`));
  gauge('events_outbox_oldest_pending_seconds', 'Age of the oldest unpublished outbox row', () =>
    scalar(`SELECT coalesce(extract(epoch FROM now() - min(occurred_at)), 0) AS value FROM ${s}.outbox_events WHERE status = 'pending'`),
  );
  gauge('events_outbox_failed', 'Outbox rows given up (operators retry them)', () => scalar(`SELECT count(*) AS value FROM ${s}.outbox_events WHERE status = 'failed'`));
  gauge('events_dead_letters', "Messages in the service's dead letters", () => options.transport.deadLetterDepth(options.service));
  gauge('events_outside_effects_failed', 'Outside effects given up (operators retry them)', () =>
    scalar(`SELECT count(*) AS value FROM ${s}.outside_effects WHERE status = 'failed'`),
  );
  gauge('events_transport_connected', '1 while the event transport is connected', () => (options.transport.health().connected ? 1 : 0));
  gauge('events_consumers_up', "The service's consumers that are receiving", () => options.transport.health().consumers.filter((consumer) => consumer.up).length);
}

/** For /ready: fails while the transport is disconnected or one of this process's consumers is down. */
export function eventsReadinessCheck(transport: EventTransport): ReadinessCheck {
  return {
    name: 'events',
    check: async () => {
      const health = transport.health();
      if (!health.connected) throw new Error('event transport disconnected');
      const down = health.consumers.filter((consumer) => !consumer.up).map((consumer) => consumer.service);
      if (down.length > 0) throw new Error(`event consumers down: ${down.join(', ')}`);
    },
  };
}
