import type { Logger } from '@bo/platform';
import { logRetentionJob } from '@bo/platform/service';
import type { PrismaClient } from '../generated/prisma/client';
import { GATEWAY_SCHEMA } from './schema';

export interface LoggedRequest {
  endpoint: string;
  method: string;
  statusCode: number;
  responseTime: number;
  /** When it was answered, in epoch milliseconds. */
  at: number;
}

/** A row as it waits in the buffer and travels to the database: a JSON array, no key names, no Date. */
type BufferedRow = [endpoint: string, method: string, statusCode: number, responseTime: number, at: number];

const FLUSH_ROWS = 1_000;
const FLUSH_INTERVAL_MS = 1_000;
/** When the database is away, older rows are dropped rather than letting memory grow without end. */
const MAX_BUFFERED_ROWS = 20_000;

/**
 * Batched writer of api_requests: the request path only pushes into a buffer; rows are inserted
 * every second or every 1,000 rows, and once more on close.
 */
export class RequestLogWriter {
  private buffer: BufferedRow[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(row: LoggedRequest): void {
    if (this.buffer.length >= MAX_BUFFERED_ROWS) this.buffer.shift();
    this.buffer.push([row.endpoint, row.method, row.statusCode, row.responseTime, row.at]);
    if (this.buffer.length >= FLUSH_ROWS) void this.flush();
  }

  /** Writes what is buffered; flushes run one after another, never concurrently. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.buffer.length > 0) {
        const rows = this.buffer.splice(0, FLUSH_ROWS);
        try {
          await insertRows(this.prisma, rows);
        } catch (error) {
          this.logger.warn({ err: error, rows: rows.length }, 'request log rows dropped');
          return;
        }
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

const table = `"${GATEWAY_SCHEMA}".api_requests`;

/**
 * One INSERT with the whole batch as a single JSON parameter of arrays: Prisma's createMany (and
 * array parameters, escaped element by element) cost the gateway's event loop more CPU than the
 * requests, and so did key names and dates written out for every row.
 */
function insertRows(prisma: PrismaClient, rows: BufferedRow[]): Promise<number> {
  return prisma.$executeRawUnsafe(
    `INSERT INTO ${table} (endpoint, method, status_code, response_time, timestamp)
     SELECT r->>0, r->>1, (r->>2)::int, (r->>3)::int, to_timestamp((r->>4)::float8 / 1000)
       FROM json_array_elements($1::json) AS r`,
    JSON.stringify(rows),
  );
}

/** The reads behind /api/monitoring/requests and /api/analytics/*. */
export class RequestLogQueries {
  constructor(private readonly prisma: PrismaClient) {}

  latest(limit: number) {
    return this.prisma.apiRequest.findMany({ orderBy: [{ timestamp: 'desc' }, { id: 'desc' }], take: limit });
  }

  /** Every logged request, not only the latest page. */
  async count(): Promise<number> {
    const [row] = await this.prisma.$queryRawUnsafe<{ total: bigint }[]>(`SELECT count(*) AS total FROM ${table}`);
    return Number(row.total);
  }

  async overview() {
    const [row] = await this.prisma.$queryRawUnsafe<{ total: bigint; avg: number | null; endpoints: bigint; ok: bigint }[]>(
      `SELECT count(*) AS total, avg(response_time)::float8 AS avg, count(DISTINCT endpoint) AS endpoints,
              count(*) FILTER (WHERE status_code < 400) AS ok
         FROM ${table}`,
    );
    return { total: Number(row.total), avgResponseTime: row.avg ?? 0, uniqueEndpoints: Number(row.endpoints), successful: Number(row.ok) };
  }

  async topEndpoints(limit: number) {
    const rows = await this.prisma.$queryRawUnsafe<{ endpoint: string; method: string; count: bigint; avg: number }[]>(
      `SELECT endpoint, method, count(*) AS count, avg(response_time)::float8 AS avg
         FROM ${table} GROUP BY endpoint, method ORDER BY count(*) DESC, endpoint LIMIT $1`,
      limit,
    );
    return rows.map((r) => ({ endpoint: r.endpoint, method: r.method, count: Number(r.count), avgResponseTime: r.avg }));
  }

  async hourly(since: Date) {
    const rows = await this.prisma.$queryRawUnsafe<{ hour: Date; requests: bigint; avg: number }[]>(
      `SELECT date_trunc('hour', timestamp) AS hour, count(*) AS requests, avg(response_time)::float8 AS avg
         FROM ${table} WHERE timestamp >= $1 GROUP BY 1 ORDER BY 1`,
      since,
    );
    return rows.map((r) => ({ hour: r.hour, requests: Number(r.requests), avgResponseTime: r.avg }));
  }
}

/** The request log keeps 30 days (every anonymous request adds a row): the platform's retention job. */
export const requestLogRetention = (prisma: PrismaClient, everyMs?: number) =>
  logRetentionJob({ db: prisma, schema: GATEWAY_SCHEMA, tables: [{ table: 'api_requests', column: 'timestamp' }], everyMs });
