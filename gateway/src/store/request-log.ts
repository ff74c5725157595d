import type { Logger } from '@bo/platform';
import { logRetention } from '@bo/platform/service';
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

/**
 * Requests as they wait in the buffer and travel to the database: a JSON array, no key names, no
 * Date; `count` alike requests answered in the same millisecond (a busy public read's mostly are),
 * each still its own row in the log.
 */
type BufferedRow = [endpoint: string, method: string, statusCode: number, responseTime: number, at: number, count: number];

const FLUSH_ROWS = 1_000;
const FLUSH_INTERVAL_MS = 1_000;
/** When the database is away, older rows are dropped rather than letting memory grow without end. */
const MAX_BUFFERED_ROWS = 20_000;

/**
 * Batched writer of api_requests: the request path only adds to a buffer (a request like the one
 * before it, in the same millisecond, only counts); what is buffered is inserted every second or
 * once 1,000 rows wait, and once more on close. A flush takes the buffer as it is when it starts:
 * requests that arrive meanwhile wait for the next, so steady traffic costs one insert a second,
 * not one after another.
 */
export class RequestLogWriter {
  private buffer: BufferedRow[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** A flush is waiting for the one before it and has not taken the buffer yet. */
  private flushQueued = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(row: LoggedRequest): void {
    const last = this.buffer.at(-1);
    if (last && last[4] === row.at && last[0] === row.endpoint && last[2] === row.statusCode && last[3] === row.responseTime && last[1] === row.method) {
      last[5] += 1;
      return;
    }
    if (this.buffer.length >= MAX_BUFFERED_ROWS) this.buffer.shift();
    this.buffer.push([row.endpoint, row.method, row.statusCode, row.responseTime, row.at, 1]);
    if (this.buffer.length >= FLUSH_ROWS) void this.flush();
  }

  /** Writes what is buffered now; flushes run one after another, never concurrently. */
  flush(): Promise<void> {
    if (this.flushQueued) return this.flushing; // the waiting flush takes these rows too
    this.flushQueued = true;
    this.flushing = this.flushing.then(async () => {
      this.flushQueued = false;
      const rows = this.buffer;
      this.buffer = [];
      for (let start = 0; start < rows.length; start += FLUSH_ROWS) {
        try {
          await insertRows(this.prisma, rows.slice(start, start + FLUSH_ROWS));
        } catch (error) {
          const requests = rows.slice(start).reduce((sum, row) => sum + row[5], 0);
          this.logger.warn({ err: error, requests }, 'request log rows dropped');
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
const hours = `"${GATEWAY_SCHEMA}".api_request_hours`;

/**
 * The SQL that writes requests into the log and adds them to the hours they fall in (in key order,
 * so two replicas adding to the same hours never wait on each other in a circle), the requests
 * given by `source`: a SELECT of endpoint, method, status_code, response_time and at. The writer
 * gives it a batch; a bench gives it a month of made-up traffic.
 */
export function logRequestsSql(source: string): string {
  return `WITH batch AS (${source}), logged AS (
       INSERT INTO ${table} (endpoint, method, status_code, response_time, timestamp)
       SELECT endpoint, method, status_code, response_time, at FROM batch
     )
     INSERT INTO ${hours} AS kept (hour, endpoint, method, requests, ok, response_time_sum)
     SELECT date_trunc('hour', at), endpoint, method, count(*), count(*) FILTER (WHERE status_code < 400), sum(response_time)
       FROM batch GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (hour, endpoint, method) DO UPDATE
       SET requests = kept.requests + excluded.requests, ok = kept.ok + excluded.ok, response_time_sum = kept.response_time_sum + excluded.response_time_sum`;
}

/**
 * One statement per batch, the batch as a single JSON parameter of arrays: Prisma's createMany
 * (and array parameters, escaped element by element) cost the gateway's event loop more CPU than
 * the requests, and so did key names and dates written out for every row.
 */
const insertBatchSql = logRequestsSql(
  `SELECT r->>0 AS endpoint, r->>1 AS method, (r->>2)::int AS status_code, (r->>3)::int AS response_time, to_timestamp((r->>4)::float8 / 1000) AS at
     FROM json_array_elements($1::json) AS r, generate_series(1, (r->>5)::int)`,
);

function insertRows(prisma: PrismaClient, rows: BufferedRow[]): Promise<number> {
  return prisma.$executeRawUnsafe(insertBatchSql, JSON.stringify(rows));
}

/**
 * The reads behind /api/monitoring and /api/analytics. The figures come from the hourly counts,
 * so they cost the same with thirty days of log as with one (a count over 2 million logged
 * requests took 0.7 s); only the latest page reads the log itself.
 */
export class RequestLogQueries {
  constructor(private readonly prisma: PrismaClient) {}

  latest(limit: number) {
    return this.prisma.apiRequest.findMany({ orderBy: [{ timestamp: 'desc' }, { id: 'desc' }], take: limit });
  }

  /** Every logged request, not only the latest page. */
  async count(): Promise<number> {
    const [row] = await this.prisma.$queryRawUnsafe<{ total: bigint | null }[]>(`SELECT sum(requests)::bigint AS total FROM ${hours}`);
    return Number(row.total ?? 0);
  }

  async overview() {
    const [row] = await this.prisma.$queryRawUnsafe<{ total: bigint | null; time: bigint | null; endpoints: bigint; ok: bigint | null }[]>(
      `SELECT sum(requests)::bigint AS total, sum(response_time_sum)::bigint AS time, count(DISTINCT endpoint) AS endpoints, sum(ok)::bigint AS ok
         FROM ${hours}`,
    );
    const total = Number(row.total ?? 0);
    return { total, avgResponseTime: total === 0 ? 0 : Number(row.time) / total, uniqueEndpoints: Number(row.endpoints), successful: Number(row.ok ?? 0) };
  }

  async topEndpoints(limit: number) {
    const rows = await this.prisma.$queryRawUnsafe<{ endpoint: string; method: string; count: bigint; time: bigint }[]>(
      `SELECT endpoint, method, sum(requests)::bigint AS count, sum(response_time_sum)::bigint AS time
         FROM ${hours} GROUP BY endpoint, method ORDER BY sum(requests) DESC, endpoint LIMIT $1`,
      limit,
    );
    return rows.map((r) => ({ endpoint: r.endpoint, method: r.method, count: Number(r.count), avgResponseTime: Number(r.time) / Number(r.count) }));
  }

  async hourly(since: Date) {
    const rows = await this.prisma.$queryRawUnsafe<{ hour: Date; requests: bigint; time: bigint }[]>(
      `SELECT hour, sum(requests)::bigint AS requests, sum(response_time_sum)::bigint AS time
         FROM ${hours} WHERE hour >= date_trunc('hour', $1::timestamptz) GROUP BY 1 ORDER BY 1`,
      since,
    );
    return rows.map((r) => ({ hour: r.hour, requests: Number(r.requests), avgResponseTime: Number(r.time) / Number(r.requests) }));
  }
}

/** The request log and its hourly counts keep 30 days (every anonymous request adds a row): the platform's retention sweep. */
export const requestLogRetention = (prisma: PrismaClient) =>
  logRetention({ db: prisma, schema: GATEWAY_SCHEMA, tables: [{ table: 'api_requests', column: 'timestamp' }, { table: 'api_request_hours', column: 'hour' }] });
