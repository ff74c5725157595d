/** The event envelope and event contracts as data (ARCHITECTURE.md section 4). */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** What travels on the bus: the same shape on RabbitMQ and on the PostgreSQL-backed transport. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  name: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime(),
  correlationId: z.string().nullable(),
  payload: z.unknown(),
});
export type EventEnvelope<P = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & { payload: P };

/** Payload fields whose value is a string or a whole number (entity keys, e.g. a row id). */
type KeyField<P> = { [K in keyof P]-?: P[K] extends string | number ? K : never }[keyof P] & string;
/** Payload fields whose value is a number (revisions). */
type NumberField<P> = { [K in keyof P]-?: P[K] extends number ? K : never }[keyof P] & string;

/**
 * Which entity a payload is about and its revision there. Delivery order is not guaranteed, so a
 * consumer uses (entity, key, revision) to skip an event older than one it already applied.
 * The revision grows with every change of that one entity (e.g. a row version column).
 */
export interface EventEntity<P> {
  /** The entity's name, e.g. `price`; events of several names about one entity share it. */
  name: string;
  /** The payload field holding the entity's key. */
  key: KeyField<P>;
  /** The payload field holding the entity's revision (an integer that only grows). */
  revision: NumberField<P>;
}

/**
 * A contract as data: stable name, version, payload schema, the entity it is about and an example.
 * Versions: a consumer of version N also accepts N+1, parsed by its own (version N) schema, so a
 * new version may only ADD optional-to-ignore fields (unknown fields are dropped by the parse); a
 * change that removes, renames or retypes a field needs a new event name.
 */
export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  version: number;
  payload: S;
  entity: EventEntity<z.infer<S>>;
  example: z.infer<S>;
}

export function defineEvent<S extends z.ZodType>(definition: EventDefinition<S>): EventDefinition<S> {
  if (!/^[a-z-]+\.[a-z-]+\.[a-z-]+$/.test(definition.name)) {
    throw new Error(`event name "${definition.name}" must be <service>.<entity>.<past-tense verb>`);
  }
  const example = definition.payload.parse(definition.example);
  entityOf(definition, example); // the example names a key and a revision, so every payload does
  return definition;
}

/** The entity, key and revision a payload of `definition` carries; throws when the fields are missing. */
export function entityOf(definition: EventDefinition, payload: unknown): { entity: string; key: string; revision: number } {
  const fields = payload as Record<string, unknown>;
  const key = fields?.[definition.entity.key];
  const revision = fields?.[definition.entity.revision];
  const keyIsValid = typeof key === 'string' || Number.isSafeInteger(key);
  if (!keyIsValid || !Number.isSafeInteger(revision) || (revision as number) < 0) {
    throw new Error(`${definition.name}: payload needs a string or integer "${definition.entity.key}" and a non-negative integer "${definition.entity.revision}"`);
  }
  return { entity: definition.entity.name, key: String(key), revision: revision as number };
}

/** Builds an envelope for a definition, validating the payload so nothing malformed is ever stored. */
export function createEnvelope<S extends z.ZodType>(
  definition: EventDefinition<S>,
  payload: z.infer<S>,
  correlationId: string | null = null,
): EventEnvelope<z.infer<S>> {
  return {
    id: randomUUID(),
    name: definition.name,
    version: definition.version,
    occurredAt: new Date().toISOString(),
    correlationId,
    payload: definition.payload.parse(payload),
  };
}

/** Reads an envelope of a known definition; throws a zod error naming the bad field. */
export function parseEnvelope<S extends z.ZodType>(definition: EventDefinition<S>, raw: unknown): EventEnvelope<z.infer<S>> {
  const envelope = eventEnvelopeSchema.parse(raw);
  if (envelope.name !== definition.name) throw new Error(`expected ${definition.name}, got ${envelope.name}`);
  return { ...envelope, payload: definition.payload.parse(envelope.payload) };
}
