/**
 * Raw SQL access, satisfied by a Prisma client and by the `tx` of its interactive transaction
 * (and by the pg-based test client). Raw SQL is not schema-qualified: every statement here
 * names `"<schema>".table`, because in embedded mode all services share one PGlite connection.
 */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** A SqlClient that can also run a function in one transaction (commit on resolve, rollback on throw). */
export interface TransactionalSqlClient extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>): Promise<R>;
}

/** `"schema"` for a plain schema name; anything that is not a simple identifier is refused. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  return `"${schema}"`;
}
