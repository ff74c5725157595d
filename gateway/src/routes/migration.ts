import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { adminNameOf, AppError, badRequest, serveRoute, ServiceCallError, ServiceClient, type IdentitySigner } from '@bo/platform';
import { withoutAudit, type AuditActor } from '@bo/platform/audit';
import type { Database } from '@bo/platform/db';
import { exportLines, importRows, ROW_LINE_PREFIX, type ExportLine, type ExportPolicy, type TableImportResult } from '@bo/platform/migration-export';
import { exportDatabase, importDatabase, INVALID_MIGRATION_FILE, migrationRoutesOf, type MigrationMetadata, type TableImportView } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';
import { GATEWAY_SCHEMA } from '../store/schema';

/** The gateway's own tables in an export: its admins and users, not its sessions nor its request log (traffic, which an import would count back); a local admin's password hash never leaves. */
const GATEWAY_EXPORT: ExportPolicy = { skip: ['sessions', 'api_requests', 'api_request_hours'], leaveOut: { local_admins: ['password_hash'] } };
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
 * refuses does each apply its tables, each in one transaction.
 */
export function registerMigrationRoutes(app: FastifyInstance, deps: { config: GatewayConfig; signer: IdentitySigner; database: Database }): void {
  const clientOf = (service: ServiceName) => new ServiceClient({ baseUrl: serviceUrl(deps.config, service), signer: deps.signer });

  serveRoute(app, exportDatabase, async ({ reply }) => {
    const exportTimestamp = new Date().toISOString();
    // Every service begins before a byte is sent: one that cannot is a clear error, not a file missing its data.
    const sources: { part: Part; lines: AsyncIterable<string> }[] = await Promise.all(
      serviceNames.map(async (service) => ({ part: service, lines: linesOf(await clientOf(service).open(migrationRoutesOf(service).exportData, { timeoutMs: EXPORT_START_MS })) })),
    );
    sources.push({ part: 'gateway', lines: splitLines(exportLines(deps.database, GATEWAY_SCHEMA, GATEWAY_EXPORT)) });
    reply.header('content-disposition', `attachment; filename="database-export-${exportTimestamp.slice(0, 10)}.json"`);
    reply.type('application/json; charset=utf-8');
    return reply.send(Readable.from(inPieces(exportFile(sources, exportTimestamp))));
  });

  serveRoute(app, importDatabase, async ({ query, body, request, identity }) => {
    const { data, metadata } = body;
    const actor: AuditActor = { id: identity!.userId, name: adminNameOf(identity), address: request.ip, request: 'POST /api/migration/import', correlationId: request.id };
    const known = new Set<string>([...serviceNames, 'gateway']);
    const unknown = Object.keys(data).filter((part) => !known.has(part));
    if (unknown.length) throw badRequest(`${INVALID_MIGRATION_FILE}: no service ${unknown.join(', ')} here`);
    const parts = Object.keys(data) as Part[];
    const importPart = async (part: Part, dryRun: boolean): Promise<TableImportView[]> => {
      const input = { version: metadata.schemaVersions?.[part] ?? null, tables: data[part]!, dryRun, exportTimestamp: metadata.exportTimestamp, actor };
      try {
        const { tables } = part === 'gateway'
          ? // As in the services: one entry per table changed, not one per row (importRows writes them).
            await withoutAudit(() => importRows(deps.database, GATEWAY_SCHEMA, GATEWAY_EXPORT, input))
           : await clientOf(part).call(migrationRoutesOf(part).importData, { body: input, timeoutMs: IMPORT_MS });
        return tables.map((table) => viewOf(part, table));
      } catch (error) {
        if (error instanceof ServiceCallError && error.status === 409) throw new AppError(409, 'conflict', `${part}: ${error.message}`);
        if (error instanceof AppError && error.status === 409) throw new AppError(409, 'conflict', `gateway: ${error.message}`);
        throw error;
      }
    };
    // The dry run of every part first: a file one service refuses (a newer version) changes nothing anywhere.
    const checked = (await Promise.all(parts.map((part) => importPart(part, true)))).flat();
    const dryRun = query.dryRun === 'true';
    const results = dryRun ? checked : (await sequentially(parts, (part) => importPart(part, false))).flat();
    return { success: results.every((result) => result.failed === 0), dryRun, results };
  });
}

function viewOf(part: Part, table: TableImportResult): TableImportView {
  return { ...table, table: `${part}.${table.table}`, success: table.added + table.updated + table.unchanged };
}

async function sequentially<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await fn(item));
  return results;
}

/** The file: `{"data":{<part>:{<table>:[rows…]}…},"metadata":{…}}`, rows passed through as the services wrote them. */
async function* exportFile(sources: { part: Part; lines: AsyncIterable<string> }[], exportTimestamp: string): AsyncGenerator<string> {
  const metadata: MigrationMetadata = { exportTimestamp, timestamp: exportTimestamp, tableCounts: {}, schemaVersions: {}, checksums: {}, leftOut: {} };
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
