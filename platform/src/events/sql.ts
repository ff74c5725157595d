/** The database surface the events module needs, generic over the service's own transaction type. */
import type { SqlClient } from '../db/prisma-client';

/**
 * Raw SQL access (see db/prisma-client), satisfied by a Prisma client, the `tx` of its interactive
 * transaction and the pg-based test client. Every statement here names `"<schema>".table`, so
 * the same SQL runs whatever the connection's search_path.
 */
export type { SqlClient };

/**
 * A client that runs a function in one transaction (commit on resolve, rollback on throw) and
 * hands it a transaction client of type `Tx`. For a Prisma client `Tx` is its typed
 * `Prisma.TransactionClient`, so handlers given a `Tx` call the service's stores with it.
 */
export interface TransactionalDb<Tx extends SqlClient = SqlClient> extends SqlClient {
  $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R>;
}

/** The untyped form (kept for existing callers): the transaction is only a SqlClient. */
export type TransactionalSqlClient = TransactionalDb<SqlClient>;

/** `"schema"` for a plain schema name; anything that is not a simple identifier is refused. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  return `"${schema}"`;
}
