import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { migrate, openDatabase } from '@bo/platform/db';
import { exportLines, importRows, keyOf, newFileEncryption, openChunks, ROW_LINE_PREFIX, sealChunks, type ExportLine } from '@bo/platform/migration-export';
import { createTestDatabase } from '@bo/platform/testing/database';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, the database export and import (issue 23): ROWS keys in streaming-keys' schema on
 * this machine's PostgreSQL, exported through the service's exporter (a cursor in one REPEATABLE
 * READ transaction, lines of JSON) and imported into a second, empty copy of the schema (one
 * transaction, 500 rows a statement). Printed: rows a second each way, the file's size, how much
 * heap the export keeps (measured after a collection every 5,000 rows: the target is that it does
 * not grow with the rows, the file is never held) beside the peak the collector lets garbage reach,
 * and the checksums of the two schemas' exports, which must be equal. Then encrypted (issue 34): the
 * export sealed as it streams (AES-256-GCM chunks, scrypt's key), and opened, parsed and imported into
 * a third schema; the same heap measure for the sealed export, and the third schema's checksum.
 */

const ROWS = scaled(100_000, 5_000);
const SOURCE = 'bench_export_source';
const COPY = 'bench_export_copy';
const SEALED_COPY = 'bench_export_sealed_copy';
/** Issue 34's target for an encrypted export and import, each way. */
const SEALED_TARGET_ROWS_PER_SECOND = 30_000;
const migrationsDir = fileURLToPath(new URL('../services/streaming-keys/prisma/migrations', import.meta.url));
const MB = 1024 * 1024;
const COLLECT_EVERY_ROWS = 5_000;

// A collection on demand, to tell what the export keeps from garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

async function main(): Promise<void> {
  console.log(modeLine());
  const testDatabase = await createTestDatabase('bench_export');
  const database = await openDatabase(testDatabase.config);
  try {
    for (const schema of [SOURCE, COPY, SEALED_COPY]) await migrate(database, { schema, migrationsDir, platformMigrations: true });
    await database.pool.query(
      `INSERT INTO ${SOURCE}.streaming_keys (email, key, service, profile_number, expires_at)
       SELECT 'pool' || (n / 5) || '@example.mn', 'NFX-BENCH-' || n, 'NFX', (n % 5) + 1, now() + (n % 365) * interval '1 day' FROM generate_series(1, $1) AS n`,
      [ROWS],
    );

    // Export: the lines read as they come and dropped, as the gateway passes them on. Timed alone, then
    // again with a collection every COLLECT_EVERY_ROWS rows to see what it keeps.
    const exportOnce = async (onRows?: () => void) => {
      let bytes = 0;
      let rows = 0;
      const checksums: Record<string, string> = {};
      for await (const chunk of exportLines(database, SOURCE, {})) {
        bytes += Buffer.byteLength(chunk);
        for (const line of chunk.split('\n').filter(Boolean)) {
          if (line.startsWith(ROW_LINE_PREFIX)) {
            if (++rows % COLLECT_EVERY_ROWS === 0) onRows?.();
            continue;
          }
          const entry = JSON.parse(line) as ExportLine;
          if (entry.t === 'end') checksums[entry.name] = entry.checksum;
        }
      }
      return { bytes, checksums };
    };
    const started = performance.now();
    const { bytes, checksums } = await exportOnce();
    const exportSeconds = (performance.now() - started) / 1000;
    console.log(`export of ${ROWS} keys: ${(ROWS / exportSeconds).toFixed(0)} rows/s (${exportSeconds.toFixed(2)} s), ${(bytes / MB).toFixed(1)} MB of lines`);
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    let keptMost = 0;
    let peak = heapBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 10);
    await exportOnce(() => {
      collect();
      keptMost = Math.max(keptMost, process.memoryUsage().heapUsed - heapBefore);
    });
    clearInterval(sampler);
    console.log(
      `heap the export keeps, after a collection every ${COLLECT_EVERY_ROWS} rows: at most +${(keptMost / MB).toFixed(1)} MB for a ${(bytes / MB).toFixed(1)} MB file (target: far under the file, not growing with it); garbage peak +${((peak - heapBefore) / MB).toFixed(1)} MB`,
    );

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

    const checksumOf = async (schema: string) => {
      for await (const chunk of exportLines(database, schema, {})) {
        for (const line of chunk.split('\n').filter(Boolean)) {
          if (line.startsWith(ROW_LINE_PREFIX)) continue;
          const entry = JSON.parse(line) as ExportLine;
          if (entry.t === 'end' && entry.name === 'streaming_keys') return entry.checksum;
        }
      }
      return null;
    };
    const same = (await checksumOf(COPY)) === checksums.streaming_keys;
    console.log(`checksum of streaming_keys after the round trip: ${same ? 'equal' : 'DIFFERENT'}`);
    if (!same || keys.failed > 0) throw new Error('the round trip did not give the same rows back');

    // Encrypted, each way timed with its key (scrypt, derived once per file: shown apart too).
    const passphrase = 'bench passphrase 2026';
    const sealStarted = performance.now();
    const { encryption, key } = await newFileEncryption(passphrase);
    console.log(`scrypt key (N=${encryption.kdf.N}, r=${encryption.kdf.r}, p=${encryption.kdf.p}): ${(performance.now() - sealStarted).toFixed(0)} ms per export or import`);
    const sealed: string[] = [];
    for await (const chunk of sealChunks(exportLines(database, SOURCE, {}), encryption, key)) sealed.push(chunk);
    const sealSeconds = (performance.now() - sealStarted) / 1000;
    const sealedRate = ROWS / sealSeconds;
    const sealedBytes = sealed.reduce((sum, chunk) => sum + chunk.length, 0);
    console.log(`encrypted export of ${ROWS} keys: ${sealedRate.toFixed(0)} rows/s (${sealSeconds.toFixed(2)} s with its key; target ≥ ${SEALED_TARGET_ROWS_PER_SECOND}: ${sealedRate >= SEALED_TARGET_ROWS_PER_SECOND ? 'met' : 'MISSED'}), ${sealed.length} chunks, ${(sealedBytes / MB).toFixed(1)} MB as base64`);

    // What the sealed export keeps: its chunks dropped as they come, as the gateway sends them on.
    collect();
    const sealedHeapBefore = process.memoryUsage().heapUsed;
    let sealedKeptMost = 0;
    let chunksSeen = 0;
    for await (const chunk of sealChunks(exportLines(database, SOURCE, {}), encryption, key)) {
      if (chunk && ++chunksSeen % 20 === 0) {
        collect();
        sealedKeptMost = Math.max(sealedKeptMost, process.memoryUsage().heapUsed - sealedHeapBefore);
      }
    }
    console.log(`heap the encrypted export keeps, after a collection every 20 chunks: at most +${(sealedKeptMost / MB).toFixed(1)} MB for a ${(sealedBytes / MB).toFixed(1)} MB file (target: as the plain export's, not growing with the file)`);

    // Encrypted import: open (the key again, from the file's salt), parse the rows, import them.
    const openStarted = performance.now();
    const opened = openChunks(sealed, encryption, await keyOf(encryption, passphrase));
    const sealedTables: Record<string, Record<string, unknown>[]> = { streaming_keys: [] };
    let table = '';
    for (const line of opened.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as ExportLine;
      if (entry.t === 'table') table = entry.name;
      if (entry.t === 'row' && table === 'streaming_keys') sealedTables.streaming_keys!.push(entry.row);
    }
    const openSeconds = (performance.now() - openStarted) / 1000;
    const [sealedKeys] = (await importRows(database, SEALED_COPY, {}, { version: null, tables: sealedTables, dryRun: false, actor, exportTimestamp: new Date().toISOString() })).tables;
    const sealedImportSeconds = (performance.now() - openStarted) / 1000;
    const sealedImportRate = ROWS / sealedImportSeconds;
    console.log(
      `encrypted import of ${ROWS} keys into an empty schema: ${sealedImportRate.toFixed(0)} rows/s (${sealedImportSeconds.toFixed(2)} s, of which the key, opening and parsing ${openSeconds.toFixed(2)} s; target ≥ ${SEALED_TARGET_ROWS_PER_SECOND}: ${sealedImportRate >= SEALED_TARGET_ROWS_PER_SECOND ? 'met' : 'MISSED'}): added ${sealedKeys!.added}, failed ${sealedKeys!.failed}`,
    );
    // Eight exports or opens at once (an admin's double clicks, a scanner): their keys are derived one after another.
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
    const parallelStarted = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => keyOf(encryption, passphrase)));
    clearInterval(rssSampler);
    console.log(
      `8 key derivations at once: ${((performance.now() - parallelStarted) / 1000).toFixed(2)} s, resident memory at most +${((rssPeak - rssBefore) / MB).toFixed(0)} MB (target: one derivation's ${(128 * encryption.kdf.N * encryption.kdf.r * encryption.kdf.p) / MB} MB, not eight)`,
    );

    const sealedSame = (await checksumOf(SEALED_COPY)) === checksums.streaming_keys;
    console.log(`checksum of streaming_keys after the encrypted round trip: ${sealedSame ? 'equal' : 'DIFFERENT'}`);
    if (!sealedSame || sealedKeys!.failed > 0) throw new Error('the encrypted round trip did not give the same rows back');
  } finally {
    await database.close();
    await testDatabase.drop();
  }
}

await main();
