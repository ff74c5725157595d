import type { EventDefinition, EventEnvelope } from '@bo/proto';
import { runWithCorrelationId } from '../logging';
import type { z } from 'zod';
import { quoteSchema, type SqlClient, type TransactionalSqlClient } from './sql';
import { UnprocessableEventError, type ConsumerSpec, type EventTransport, type Subscription } from './transport';

/** One event a service consumes: its contract and the effect, run inside the inbox transaction. */
export interface EventHandler<S extends z.ZodType = z.ZodType> {
  definition: EventDefinition<S>;
  handle(tx: SqlClient, envelope: EventEnvelope<z.infer<S>>): Promise<void>;
}

/** Pairs a definition with its handler, keeping the payload type (an array of mixed events loses it otherwise). */
export function onEvent<S extends z.ZodType>(
  definition: EventDefinition<S>,
  handle: (tx: SqlClient, envelope: EventEnvelope<z.infer<S>>) => Promise<void>,
): EventHandler {
  return { definition, handle } as unknown as EventHandler;
}

export interface SubscribeOptions extends Omit<ConsumerSpec, 'bindings'> {
  /** The service's schema, where its inbox_events table lives. */
  schema: string;
  db: TransactionalSqlClient;
  transport: EventTransport;
  events: EventHandler[];
}

/**
 * Consumes the service's queue through the inbox: the payload is validated against the event's
 * zod schema (a bad one is dead-lettered at once); then one transaction records
 * (consumer, event id) in inbox_events and runs the effect. An id already recorded skips the
 * effect, so redeliveries and duplicates have one effect. The transport acks only after commit.
 */
export async function subscribe(options: SubscribeOptions): Promise<Subscription> {
  const { service, schema, db, transport, events, ...spec } = options;
  const inbox = `${quoteSchema(schema)}.inbox_events`;
  const handlers = new Map(events.map((event) => [event.definition.name, event]));
  // The effect runs in the publishing request's correlation context, so its logs join that request's.
  return transport.consume({ ...spec, service, bindings: [...handlers.keys()] }, ({ envelope }) =>
    runWithCorrelationId(envelope.correlationId ?? envelope.id, () => handleOne(envelope)),
  );

  async function handleOne(envelope: EventEnvelope): Promise<void> {
    const event = handlers.get(envelope.name);
    if (!event) throw new UnprocessableEventError(`${service} does not handle ${envelope.name}`);
    if (envelope.version !== event.definition.version) {
      throw new UnprocessableEventError(`${envelope.name} version ${envelope.version} is not ${event.definition.version}`);
    }
    const payload = event.definition.payload.safeParse(envelope.payload);
    if (!payload.success) throw new UnprocessableEventError(`invalid ${envelope.name} payload: ${payload.error.message}`);
    await db.$transaction(async (tx) => {
      const recorded = await tx.$executeRawUnsafe(
        `INSERT INTO ${inbox} (consumer, event_id, name) VALUES ($1, $2::uuid, $3) ON CONFLICT DO NOTHING`,
        service,
        envelope.id,
        envelope.name,
      );
      if (recorded === 0) return; // seen before: the effect is already committed
      await event.handle(tx, { ...envelope, payload: payload.data });
    });
  }
}
