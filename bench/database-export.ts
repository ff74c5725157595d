import { fileURLToPath } from 'node:url';
import { migrate, openDatabase } from '@bo/platform/db';
import { exportLines, importRows, ROW_LINE_PREFIX, type ExportLine } from '@bo/platform/migration-export';
import { createTestDatabase } from '@bo/platform/testing/database';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, the database export and import (issue 23): ROWS keys in streaming-keys' schema on
 * this machine's PostgreSQL, exported through the service's exporter (a cursor in one REPEATABLE
 * READ transaction, lines of JSON) and imported into a second, empty copy of the schema (one
 * transaction, 500 rows a statement). Printed: rows a second each way, the file's size, and how
 * much this process's memory grew while exporting (the target: it does not grow with the rows, the
 * file is never held), and the checksums of the two schemas' exports, which must be equal.
 */

const ROWS = scaled(100_000, 5_000);
const SOURCE = 'bench_export_source';
const COPY = 'bench_export_copy';
const migrationsDir = fileURLToPath(new URL('../services/streaming-keys/prisma/migrations', import.meta.url));
const MB = 1024 * 1024;

async function main(): Promise<void> {
  console.log(modeLine());
  const testDatabase = await createTestDatabase('bench_export');
  const database = await openDatabase(testDatabase.config);
  try {
    for (const schema of [SOURCE, COPY]) await migrate(database, { schema, migrationsDir, platformMigrations: true });
    await database.pool.query(
      `INSERT INTO ${SOURCE}.streaming_keys (email, key, service, profile_number, expires_at)
       SELECT 'pool' || (n / 5) || '@example.mn', 'NFX-BENCH-' || n, 'NFX', (n % 5) + 1, now() + (n % 365) * interval '1 day' FROM generate_series(1, $1) AS n`,
      [ROWS],
    );

    // Export: the lines read as they come and dropped, as the gateway passes them on.
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    let peakHeap = heapBefore;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      const memory = process.memoryUsage();
      peakHeap = Math.max(peakHeap, memory.heapUsed);
      peakRss = Math.max(peakRss, memory.rss);
    }, 20);
    let bytes = 0;
    const checksums: Record<string, string> = {};
    const started = performance.now();
    for await (const chunk of exportLines(database, SOURCE, {})) {
      bytes += Buffer.byteLength(chunk);
      for (const line of chunk.split('\n').filter(Boolean)) {
        if (line.startsWith(ROW_LINE_PREFIX)) continue;
        const entry = JSON.parse(line) as ExportLine;
        if (entry.t === 'end') checksums[entry.name] = entry.checksum;
      }
    }
    const exportSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    console.log(`export of ${ROWS} keys: ${(ROWS / exportSeconds).toFixed(0)} rows/s (${exportSeconds.toFixed(2)} s), ${(bytes / MB).toFixed(1)} MB of lines`);
    console.log(`memory while exporting: heap +${((peakHeap - heapBefore) / MB).toFixed(1)} MB, RSS +${((peakRss - rssBefore) / MB).toFixed(1)} MB (the file is ${(bytes / MB).toFixed(1)} MB; target: growth well under it)`);

    // Import: the keys of the file, as the gateway hands a service its part.
    const tables: Record<string, Record<string, unknown>[]> = { streaming_keys: [] };
    let current = '';
    for await (const chunk of exportLines(database, SOURCE, {})) {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as ExportLine;
        if (entry.t === 'table') current = entry.name;
        if (entry.t === 'row' && current === 'streaming_keys') tables.streaming_keys!.push(entry.row);
      }
    }
    const actor = { id: 'bench', name: 'bench', address: null, request: 'bench', correlationId: null };
    const importStarted = performance.now();
    const { tables: results } = await importRows(database, COPY, {}, { version: null, tables, dryRun: false, actor, exportTimestamp: new Date().toISOString() });
    const importSeconds = (performance.now() - importStarted) / 1000;
    const keys = results.find((result) => result.table === 'streaming_keys')!;
    console.log(`import of ${ROWS} keys into an empty schema: ${(ROWS / importSeconds).toFixed(0)} rows/s (${importSeconds.toFixed(2)} s): added ${keys.added}, failed ${keys.failed}`);
    const againStarted = performance.now();
    const [again] = (await importRows(database, COPY, {}, { version: null, tables, dryRun: false, actor, exportTimestamp: new Date().toISOString() })).tables;
    console.log(`the same file again: ${(ROWS / ((performance.now() - againStarted) / 1000)).toFixed(0)} rows/s: unchanged ${again.unchanged}, added ${again.added}, updated ${again.updated}`);

    const copyChecksums: Record<string, string> = {};
    for await (const chunk of exportLines(database, COPY, {})) {
      for (const line of chunk.split('\n').filter(Boolean)) {
        if (line.startsWith(ROW_LINE_PREFIX)) continue;
        const entry = JSON.parse(line) as ExportLine;
        if (entry.t === 'end') copyChecksums[entry.name] = entry.checksum;
      }
    }
    const same = copyChecksums.streaming_keys === checksums.streaming_keys;
    console.log(`checksum of streaming_keys after the round trip: ${same ? 'equal' : 'DIFFERENT'}`);
    if (!same || keys.failed > 0) throw new Error('the round trip did not give the same rows back');
  } finally {
    await database.close();
    await testDatabase.drop();
  }
}

await main();
