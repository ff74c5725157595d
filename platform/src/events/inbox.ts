/**
 * The inbox: consumes a service's queue so that each event has its effect once, in the service's
 * own typed transaction, and an event older than what was already applied is skipped.
 */
import { entityOf, type EventDefinition, type EventEnvelope } from '@bo/proto';
import type { z } from 'zod';
import { runWithCorrelationId } from '../logging';
import { quoteSchema, type SqlClient, type TransactionalDb } from './sql';
import { UnprocessableEventError, type ConsumerSpec, type EventTransport, type Subscription } from './transport';

/** One event a service consumes: its contract and the effect, run inside the inbox transaction `tx`. */
export interface EventHandler<Tx extends SqlClient = SqlClient, S extends z.ZodType = z.ZodType> {
  definition: EventDefinition<S>;
  handle(tx: Tx, envelope: EventEnvelope<z.infer<S>>): Promise<void>;
  /** See `OnEventOptions.everyRevision`. */
  everyRevision?: boolean;
}

export interface OnEventOptions {
  /**
   * Apply every event once, whatever its revision: for an effect about the event itself (a chat
   * message per sale) rather than the entity's latest state, so an event overtaken by a newer one
   * of its entity still has its effect. Such a handler neither reads nor moves the applied revision.
   */
  everyRevision?: boolean;
}

/**
 * Pairs a definition with its handler, keeping the payload type. `tx` is the service's own
 * transaction client (annotate it, e.g. `(tx: Prisma.TransactionClient, event) => store.apply(tx, ...)`):
 * call store methods with it, so the effect commits with the inbox record or not at all.
 */
export function onEvent<Tx extends SqlClient = SqlClient, S extends z.ZodType = z.ZodType>(
  definition: EventDefinition<S>,
  handle: (tx: Tx, envelope: EventEnvelope<z.infer<S>>) => Promise<void>,
  options: OnEventOptions = {},
): EventHandler<Tx> {
  return { definition, handle, everyRevision: options.everyRevision === true } as unknown as EventHandler<Tx>;
}

export interface SubscribeOptions<Tx extends SqlClient = SqlClient> extends Omit<ConsumerSpec, 'bindings'> {
  /** The service's schema, where its inbox_events and applied_revisions tables live. */
  schema: string;
  db: TransactionalDb<Tx>;
  transport: EventTransport;
  events: EventHandler<Tx>[];
  /** Runs after each committed effect (e.g. nudge the outbox relay or the outside-effect runner). */
  afterCommit?: () => void;
}

/**
 * Consumes the service's queue through the inbox. Per delivery:
 * - the envelope's version must be the handler's or the next one (the next is parsed by the
 *   current schema: versions only add fields); anything else is dead-lettered at once;
 * - the payload is validated against the zod schema (a bad one is dead-lettered at once);
 * - one transaction records (consumer, event id) in inbox_events, then the entity's revision in
 *   applied_revisions, then runs the effect. An id already recorded skips everything (duplicates
 *   and redeliveries have one effect). Delivery order is NOT guaranteed (retries, replays, several
 *   relays): an event whose revision is older than the one already applied for its entity is
 *   recorded as `stale` and its effect skipped (unless its handler takes `everyRevision`).
 * The transport acks only after the transaction committed.
 */
export async function subscribe<Tx extends SqlClient>(options: SubscribeOptions<Tx>): Promise<Subscription> {
  const { service, schema, db, transport, events, afterCommit, ...spec } = options;
  const s = quoteSchema(schema);
  const handlers = new Map(events.map((event) => [event.definition.name, event]));
  // The effect runs in the publishing request's correlation context, so its logs join that request's.
  return transport.consume({ ...spec, service, bindings: [...handlers.keys()] }, ({ envelope }) =>
    runWithCorrelationId(envelope.correlationId ?? envelope.id, () => handleOne(envelope), service),
  );

  async function handleOne(envelope: EventEnvelope): Promise<void> {
    const event = handlers.get(envelope.name);
    if (!event) throw new UnprocessableEventError(`${service} does not handle ${envelope.name}`);
    const { version } = event.definition;
    if (envelope.version !== version && envelope.version !== version + 1) {
      throw new UnprocessableEventError(`${envelope.name} version ${envelope.version}: this consumer accepts ${version} and ${version + 1}`);
    }
    const payload = event.definition.payload.safeParse(envelope.payload);
    if (!payload.success) throw new UnprocessableEventError(`invalid ${envelope.name} payload: ${payload.error.message}`);
    let revision: ReturnType<typeof entityOf>;
    try {
      revision = entityOf(event.definition, payload.data);
    } catch (error) {
      throw new UnprocessableEventError((error as Error).message);
    }
    const applied = await db.$transaction(async (tx) => {
      const recorded = await tx.$executeRawUnsafe(
        `INSERT INTO ${s}.inbox_events (consumer, event_id, name) VALUES ($1, $2::uuid, $3) ON CONFLICT DO NOTHING`,
        service,
        envelope.id,
        envelope.name,
      );
      if (recorded === 0) return false; // seen before: the effect is already committed
      if (event.everyRevision) {
        await event.handle(tx, { ...envelope, payload: payload.data });
        return true;
      }
      const current = await tx.$executeRawUnsafe(
        `INSERT INTO ${s}.applied_revisions (consumer, entity, entity_key, revision, event_id) VALUES ($1, $2, $3, $4::bigint, $5::uuid)
         ON CONFLICT (consumer, entity, entity_key) DO UPDATE SET revision = EXCLUDED.revision, event_id = EXCLUDED.event_id, applied_at = now()
         WHERE applied_revisions.revision <= EXCLUDED.revision`,
        service,
        revision.entity,
        revision.key,
        revision.revision,
        envelope.id,
      );
      if (current === 0) {
        await tx.$executeRawUnsafe(`UPDATE ${s}.inbox_events SET outcome = 'stale' WHERE consumer = $1 AND event_id = $2::uuid`, service, envelope.id);
        return false;
      }
      await event.handle(tx, { ...envelope, payload: payload.data });
      return true;
    });
    if (applied) afterCommit?.();
  }
}
