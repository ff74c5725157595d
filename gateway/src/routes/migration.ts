import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { adminNameOf, AppError, badRequest, conflict, jsonDepthExceeds, serveRoute, ServiceCallError, ServiceClient, type IdentitySigner } from '@bo/platform';
import { withoutAudit, type AuditActor } from '@bo/platform/audit';
import type { Database } from '@bo/platform/db';
import { EncryptedFileRefused, exportLines, importRows, keyOf, newFileEncryption, openChunks, ROW_LINE_PREFIX, sealChunks, type ExportLine, type ExportPolicy, type TableImportResult } from '@bo/platform/migration-export';
import { runKind, startedByOf, type Runs } from '@bo/platform/runs';
import {
  businessDate,
  ENCRYPTED_EXPORT_FORMAT,
  exportDatabase,
  exportDatabaseEncrypted,
  type FileEncryption,
  IMPORT_ALREADY_RUNNING,
  IMPORT_RUN_KIND,
  importDatabase,
  INVALID_MIGRATION_FILE,
  migrationFileSchema,
  migrationRoutesOf,
  openEncryptedExport,
  runRowId,
  type ImportResult,
  type MigrationMetadata,
  type RequestBodyOf,
  type TableImportView,
  WRONG_PASSPHRASE,
} from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import type { PrismaClient } from '../generated/prisma/client';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';
import { GATEWAY_SCHEMA } from '../store/schema';

/**
 * The gateway's own tables in an export: its admins and users, not its sessions nor its request log
 * (traffic, which an import would count back) nor a file being imported; a local admin's password hash never leaves.
 */
const GATEWAY_EXPORT: ExportPolicy = { skip: ['sessions', 'api_requests', 'api_request_hours', 'migration_import_parts'], leaveOut: { local_admins: ['password_hash'] } };
/** How long a service may take to begin its export, and to import its part of a file. */
const EXPORT_START_MS = 10_000;
const IMPORT_MS = 10 * 60_000;
/** The file is written out in pieces of about this size. */
const WRITE_PIECE = 64 * 1024;

type Part = 'gateway' | ServiceName;

/**
 * The database export and import (docs/database-export.md). Export: every service's lines, read
 * at one moment each, written into one JSON file as they arrive (never held whole): `data` per
 * service and table, then `metadata` with the counts, versions, checksums and the columns left out.
 * Import: every service checks and counts the file first (a dry run, rolled back); only when none
 * refuses does a run (migration-import) apply it, a step per service, each in one transaction.
 */
export function registerMigrationRoutes(app: FastifyInstance, deps: { config: GatewayConfig; signer: IdentitySigner; database: Database; prisma: PrismaClient; runs: Runs }): void {
  const clientOf = (service: ServiceName) => new ServiceClient({ baseUrl: serviceUrl(deps.config, service), signer: deps.signer });

  /** Every service's lines, begun before a byte is sent: one that cannot begin is a clear error, not a file missing its data. */
  const exportSources = async (): Promise<{ part: Part; lines: AsyncIterable<string> }[]> => {
    const sources: { part: Part; lines: AsyncIterable<string> }[] = await Promise.all(
      serviceNames.map(async (service) => ({ part: service, lines: linesOf(await clientOf(service).open(migrationRoutesOf(service).exportData, { timeoutMs: EXPORT_START_MS })) })),
    );
    sources.push({ part: 'gateway', lines: splitLines(exportLines(deps.database, GATEWAY_SCHEMA, GATEWAY_EXPORT)) });
    return sources;
  };
  // Named with the business's date (Ulaanbaatar's), the day the operator sees: not UTC's, a day behind before 08:00 there.
  const fileName = (exportTimestamp: string, kind: string) => `attachment; filename="database-export-${businessDate(new Date(exportTimestamp))}${kind}.json"`;

  serveRoute(app, exportDatabase, async ({ reply }) => {
    const exportTimestamp = new Date().toISOString();
    const sources = await exportSources();
    reply.header('content-disposition', fileName(exportTimestamp, ''));
    reply.type('application/json; charset=utf-8');
    return reply.send(Readable.from(inPieces(exportFile(sources, newMetadata(exportTimestamp)))));
  });

  serveRoute(app, exportDatabaseEncrypted, async ({ body, reply }) => {
    const exportTimestamp = new Date().toISOString();
    const { encryption, key } = await newFileEncryption(body.passphrase);
    const sources = await exportSources();
    const metadata = newMetadata(exportTimestamp);
    reply.header('content-disposition', fileName(exportTimestamp, '.encrypted'));
    reply.type('application/json; charset=utf-8');
    return reply.send(Readable.from(inPieces(encryptedFile(exportFile(sources, metadata), metadata, encryption, key))));
  });

  serveRoute(app, openEncryptedExport, async ({ body, reply }) => {
    const { passphrase, encryption, body: chunks } = body;
    let text: string;
    try {
      text = openChunks(chunks, encryption, await keyOf(encryption, passphrase));
    } catch (error) {
      if (error instanceof EncryptedFileRefused) throw badRequest(WRONG_PASSPHRASE);
      throw error;
    }
    // What opened was sealed with this passphrase: a file, unless what sealed it was not our export.
    // It is checked as an upload is, then sent as it opened (not written out again: it may be large).
    if (jsonDepthExceeds(text) || !migrationFileSchema.safeParse(parsedOrNull(text)).success) throw badRequest(INVALID_MIGRATION_FILE);
    reply.type('application/json; charset=utf-8');
    return reply.send(text);
  });

  /** One part of a file: every service checks (a dry run, rolled back) or imports its own tables; the gateway imports its own. */
  const importPart = async (part: Part, input: PartInput): Promise<TableImportView[]> => {
    try {
      const { tables } = part === 'gateway'
        ? // As in the services: one entry per table changed, not one per row (importRows writes them).
          await withoutAudit(() => importRows(deps.database, GATEWAY_SCHEMA, GATEWAY_EXPORT, input))
        : await clientOf(part).call(migrationRoutesOf(part).importData, { body: input, timeoutMs: IMPORT_MS });
      return tables.map((table) => viewOf(part, table));
    } catch (error) {
      // A refusal (a newer version) says whose.
      if ((error instanceof ServiceCallError || error instanceof AppError) && error.status === 409) throw new AppError(409, 'conflict', `${part}: ${error.message}`);
      throw error;
    }
  };

  const importRun = runKind<ImportRunInput, ImportResult>(
    IMPORT_RUN_KIND,
    async (run) => {
      const { parts, exportTimestamp, versions, actor } = run.input;
      const runId = runRowId(run.id);
      const results: TableImportView[] = [];
      run.progress({ current: 0, total: parts.length });
      for (const [index, part] of parts.entries()) {
        // A step per service: a run taken up after a restart, or retried, goes on from the first part not imported.
        const views = await run.step(`import ${part}`, async () => {
          const stored = await deps.prisma.migrationImportPart.findUnique({ where: { runId_part: { runId, part } } });
          if (!stored) throw new Error(`The file of this import is no longer here (another import began since): import the file again`);
          const tables = JSON.parse(stored.tables) as Record<string, Record<string, unknown>[]>;
          return await importPart(part, { version: versions[part] ?? null, tables, dryRun: false, exportTimestamp, actor });
        });
        results.push(...views);
        run.progress({ current: index + 1, counters: totalsOf(results) });
      }
      await deps.prisma.migrationImportPart.deleteMany({ where: { runId } });
      const adminsWithoutPassword = (await deps.prisma.localAdmin.findMany({ where: { passwordHash: null, disabledAt: null }, select: { username: true }, orderBy: { username: 'asc' } })).map((admin) => admin.username);
      return { success: results.every((result) => result.failed === 0), dryRun: false, results, adminsWithoutPassword };
    },
    // One import at a time: two would interleave their rows.
    { exclusive: true },
  );
  deps.runs.register([importRun]);

  serveRoute(app, importDatabase, async ({ query, body, request, identity }) => {
    const { data, metadata } = body;
    const actor: AuditActor = { id: identity!.userId, name: adminNameOf(identity), address: request.ip, request: 'POST /api/migration/import', correlationId: request.id };
    const known = new Set<string>([...serviceNames, 'gateway']);
    const unknown = Object.keys(data).filter((part) => !known.has(part));
    if (unknown.length) throw badRequest(`${INVALID_MIGRATION_FILE}: no service ${unknown.join(', ')} here`);
    const parts = Object.keys(data) as Part[];
    const versions = Object.fromEntries(parts.map((part) => [part, metadata.schemaVersions?.[part] ?? null]));
    // The dry run of every part first: a file one service refuses (a newer version) changes nothing anywhere.
    const checked = (
      await Promise.all(parts.map((part) => importPart(part, { version: versions[part]!, tables: data[part]!, dryRun: true, exportTimestamp: metadata.exportTimestamp, actor })))
    ).flat();
    if (query.dryRun === 'true') return { success: checked.every((result) => result.failed === 0), dryRun: true as const, results: checked };

    // The import is a run: the file's parts are kept beside it (in its transaction), so it survives a restart.
    const input: ImportRunInput = { parts, exportTimestamp: metadata.exportTimestamp, versions, actor };
    const run = await deps.prisma.$transaction(
      async (tx) => {
        const begun = await deps.runs.begin(importRun, input, { startedBy: startedByOf(identity) }, tx);
        if (begun.joined) throw conflict(IMPORT_ALREADY_RUNNING);
        // The parts of imports that ended without completing go: the newest file is the one that counts.
        await tx.migrationImportPart.deleteMany({});
        await tx.migrationImportPart.createMany({ data: parts.map((part) => ({ runId: runRowId(begun.run.id), part, tables: JSON.stringify(data[part]) })) });
        return begun.run;
      },
      { timeout: IMPORT_MS },
    );
    deps.runs.nudge();
    return { dryRun: false as const, run };
  });
}

/** What an import run is given: the file's parts are stored beside it (migration_import_parts), not in its input. */
interface ImportRunInput {
  parts: Part[];
  exportTimestamp: string;
  versions: Record<string, string | null>;
  actor: AuditActor;
}
/** What a service's import route takes, and the gateway's own importRows. */
type PartInput = RequestBodyOf<ReturnType<typeof migrationRoutesOf>['importData']>;

/** The run's counters: rows added, updated and failed so far. */
function totalsOf(results: TableImportView[]): Record<string, number> {
  const totals = { added: 0, updated: 0, failed: 0 };
  for (const result of results) {
    totals.added += result.added;
    totals.updated += result.updated;
    totals.failed += result.failed;
  }
  return totals;
}

function viewOf(part: Part, table: TableImportResult): TableImportView {
  return { ...table, table: `${part}.${table.table}`, success: table.added + table.updated + table.unchanged };
}

const newMetadata = (exportTimestamp: string): MigrationMetadata => ({ exportTimestamp, timestamp: exportTimestamp, tableCounts: {}, schemaVersions: {}, checksums: {}, leftOut: {} });

/**
 * The file: `{"data":{<part>:{<table>:[rows…]}…},"metadata":{…}}`, rows passed through as the
 * services wrote them; `metadata` is filled as the lines pass, and whole when the last piece is out.
 */
async function* exportFile(sources: { part: Part; lines: AsyncIterable<string> }[], metadata: MigrationMetadata): AsyncGenerator<string> {
  yield '{"data":{';
  for (const [index, { part, lines }] of sources.entries()) {
    yield `${index ? ',' : ''}${JSON.stringify(part)}:{`;
    let tables = 0;
    let rows = 0;
    for await (const line of lines) {
      if (line.startsWith(ROW_LINE_PREFIX)) {
        yield `${rows++ ? ',' : ''}${line.slice(ROW_LINE_PREFIX.length, -1)}`;
        continue;
      }
      const entry = JSON.parse(line) as ExportLine;
      if (entry.t === 'begin') metadata.schemaVersions[part] = entry.version;
      else if (entry.t === 'table') {
        yield `${tables++ ? ',' : ''}${JSON.stringify(entry.name)}:[`;
        rows = 0;
        if (entry.leftOut.length) metadata.leftOut[`${part}.${entry.name}`] = entry.leftOut;
      } else if (entry.t === 'end') {
        yield ']';
        metadata.tableCounts[`${part}.${entry.name}`] = entry.count;
        metadata.checksums[`${part}.${entry.name}`] = entry.checksum;
      }
    }
    yield '}';
  }
  metadata.timestamp = new Date().toISOString();
  yield `},"metadata":${JSON.stringify(metadata)}}`;
}

/** The encrypted file: the plain file sealed chunk by chunk into `body`, then its metadata (whole once the plain file has passed) in the clear. */
async function* encryptedFile(plain: AsyncIterable<string>, metadata: MigrationMetadata, encryption: FileEncryption, key: Buffer): AsyncGenerator<string> {
  yield `{"format":${JSON.stringify(ENCRYPTED_EXPORT_FORMAT)},"version":1,"encryption":${JSON.stringify(encryption)},"body":[`;
  let chunks = 0;
  for await (const chunk of sealChunks(plain, encryption, key)) yield `${chunks++ ? ',' : ''}"${chunk}"`;
  yield `],"metadata":${JSON.stringify(metadata)}}`;
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Joins small strings into pieces of about WRITE_PIECE characters (one write each). */
async function* inPieces(texts: AsyncIterable<string>): AsyncGenerator<string> {
  let piece = '';
  for await (const text of texts) {
    piece += text;
    if (piece.length >= WRITE_PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/** The lines of a stream of text (each without its newline). */
async function* splitLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest) yield rest;
}

const linesOf = (body: ReadableStream<Uint8Array>) => splitLines(Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>).setEncoding('utf8'));
