import type { Outbox, SqlClient } from '@bo/platform/events';
import type { EventDefinition } from '@bo/proto';
import type { z } from 'zod';

/**
 * Writes an event into the transaction that makes the change: `emit` of outbox.commit in a
 * request, outbox.enqueue in an inbox transaction (consumers). Operations take either.
 */
export type Publish = <S extends z.ZodType>(definition: EventDefinition<S>, payload: z.infer<S>) => unknown;

/** Publish inside a transaction the inbox already holds (the relay is nudged after its commit). */
export const enqueueIn =
  <Tx extends SqlClient>(outbox: Outbox<Tx>, tx: SqlClient): Publish =>
  (definition, payload) =>
    outbox.enqueue(tx, definition, payload);
