import pg from 'pg';
import { z } from 'zod';
import { schemaOf, serviceNames, type ServiceName } from '@bo/proto';
import { loadConfig } from '../config';
import { quoteIdentifier } from '../db';
import { dataEncryptionEnv, SecretBox, SecretUnreadable } from '../secret-box';
import type { SealedColumn } from './define-service';
import { loadServiceDefinition } from './main';

/** What a rotation did to one sealed column: rows re-sealed with the newest key, already current, and those it could not open. */
export interface ColumnRotation {
  service: ServiceName;
  table: string;
  column: string;
  resealed: number;
  current: number;
  /** Rows whose value names a key the ring does not have, by key id ('v1' for values without one). */
  unreadable: Record<string, number>;
  /** Rows written by the service itself while the rotation ran (already sealed with the key it runs with). */
  changedMeanwhile: number;
}

/**
 * Re-seals every value of one service's sealed columns with the ring's newest key, in the
 * service's own schema. Each value is swapped only if it is still the one that was read, so a
 * running service's writes are never overwritten; a value that cannot be opened is counted and
 * left as it is.
 */
export async function resealService(client: pg.ClientBase, service: ServiceName, columns: readonly SealedColumn[], box: SecretBox): Promise<ColumnRotation[]> {
  const schema = schemaOf(service);
  const results: ColumnRotation[] = [];
  for (const { table, column } of columns) {
    const result: ColumnRotation = { service, table, column, resealed: 0, current: 0, unreadable: {}, changedMeanwhile: 0 };
    results.push(result);
    // A service that never started has no tables yet: nothing sealed to rotate.
    const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [`${quoteIdentifier(schema)}.${quoteIdentifier(table)}`]);
    if (!exists.rows[0].found) continue;
    const target = `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
    const col = quoteIdentifier(column);
    const values = await client.query<{ value: string; rows: string }>(`SELECT ${col} AS value, count(*) AS rows FROM ${target} WHERE ${col} IS NOT NULL AND ${col} <> '' GROUP BY ${col}`);
    for (const { value, rows } of values.rows) {
      let resealed: string | null;
      try {
        resealed = box.reseal(value);
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
        const keyId = error.keyId ?? 'v1';
        result.unreadable[keyId] = (result.unreadable[keyId] ?? 0) + Number(rows);
        continue;
      }
      if (resealed === null) {
        result.current += Number(rows);
        continue;
      }
      const updated = await client.query(`UPDATE ${target} SET ${col} = $1 WHERE ${col} = $2`, [resealed, value]);
      result.resealed += updated.rowCount ?? 0;
      result.changedMeanwhile += Number(rows) - (updated.rowCount ?? 0);
    }
  }
  return results;
}

/** Every service's sealed columns (each declares them in its definition), re-sealed in its own schema. */
export async function rotateDataKey(databaseUrl: string, box: SecretBox, services: readonly ServiceName[] = serviceNames): Promise<ColumnRotation[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const results: ColumnRotation[] = [];
    for (const service of services) {
      const { sealedColumns = [] } = await loadServiceDefinition(service);
      results.push(...(await resealService(client, service, sealedColumns, box)));
    }
    return results;
  } finally {
    await client.end();
  }
}

/** The distributed run's rotation: DATABASE_URL and the key ring (the new key, the old ones) from the environment, as the services have them. */
export async function rotateFromEnvironment(env: NodeJS.ProcessEnv): Promise<{ keyId: string; results: ColumnRotation[] }> {
  const config = loadConfig(z.object({ DATABASE_URL: z.url(), ...dataEncryptionEnv }), env);
  const box = SecretBox.fromConfig(config);
  return { keyId: box.keyId, results: await rotateDataKey(config.DATABASE_URL, box) };
}

/** One line per column, for the operator: what was re-sealed, what was current, what could not be opened and why. */
export function rotationReport(results: readonly ColumnRotation[], keyId: string): string[] {
  const lines = results.map(({ service, table, column, resealed, current, unreadable, changedMeanwhile }) => {
    const missing = Object.entries(unreadable).map(([id, count]) => (id === 'v1' ? `${count} of format v1, without a key id` : `${count} with key ${id}`));
    const total = Object.values(unreadable).reduce((sum, count) => sum + count, 0);
    return [
      `${service} ${table}.${column}: re-sealed ${resealed}, already current ${current}, unreadable ${total}${missing.length ? ` (${missing.join(', ')})` : ''}`,
      changedMeanwhile ? `, changed by the service meanwhile ${changedMeanwhile}` : '',
    ].join('');
  });
  const unreadableKeys = [...new Set(results.flatMap((result) => Object.keys(result.unreadable)))];
  lines.push(`Every readable value is now sealed with key ${keyId}.`);
  if (unreadableKeys.length) {
    const keys = unreadableKeys.map((id) => (id === 'v1' ? 'an older key (format v1)' : `key ${id}`)).join(', ');
    lines.push(`Not opened: values sealed with ${keys}, not in DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_OLD_KEYS. Add the key to DATA_ENCRYPTION_OLD_KEYS and run again, or enter those secrets again.`);
  }
  return lines;
}
