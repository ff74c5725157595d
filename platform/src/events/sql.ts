import type { SqlClient } from '../db/prisma-client';

/**
 * Raw SQL access (see db/prisma-client), satisfied by a Prisma client, the `tx` of its interactive
 * transaction and the pg-based test client. Every statement here names `"<schema>".table`,
 * because in embedded mode all services share one PGlite connection.
 */
export type { SqlClient };

/** A SqlClient that can also run a function in one transaction (commit on resolve, rollback on throw). */
export interface TransactionalSqlClient extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>): Promise<R>;
}

/** `"schema"` for a plain schema name; anything that is not a simple identifier is refused. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  return `"${schema}"`;
}
