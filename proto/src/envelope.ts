import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** What travels on the bus: the same shape on RabbitMQ and in memory. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  name: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime(),
  correlationId: z.string().nullable(),
  payload: z.unknown(),
});
export type EventEnvelope<P = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'payload'> & { payload: P };

/** A contract as data: stable name, version, payload schema and an example (ARCHITECTURE.md section 4). */
export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  version: number;
  payload: S;
  example: z.infer<S>;
}

export function defineEvent<S extends z.ZodType>(definition: EventDefinition<S>): EventDefinition<S> {
  if (!/^[a-z-]+\.[a-z-]+\.[a-z-]+$/.test(definition.name)) {
    throw new Error(`event name "${definition.name}" must be <service>.<entity>.<past-tense verb>`);
  }
  definition.payload.parse(definition.example);
  return definition;
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
