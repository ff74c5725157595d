import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Caller } from './auth';
import { TokenError } from './auth';
import type { ValueInputOption, ValueRenderOption } from './cells';
import { GoogleApiError, invalidArgument, errorInfo } from './errors';
import type { QuotaKind, QuotaMeter } from './quota';
import type { MajorDimension, Spreadsheet, WriteInput } from './spreadsheet';
import type { SheetsState } from './state';

interface Deps {
  state: SheetsState;
  auth: Authenticator;
  quotas: QuotaMeter;
}

type Query = Record<string, string | string[] | undefined>;
/** What a route reads from the request: the JSON body, the query, and the decoded {range}. */
interface Call {
  body: Record<string, unknown>;
  query: Query;
  range: string;
}
type Operation = (spreadsheet: Spreadsheet, call: Call) => unknown;

/** One route per Sheets method: the method, the path tail after `{spreadsheetId}`, read or write. */
interface Route {
  method: string;
  kind: QuotaKind;
  /** Tail after /v4/spreadsheets/{id}; `range` is the decoded {range} when the tail carries one. */
  match(tail: string): { range?: string } | undefined;
  run: Operation;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const many = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function option<T extends string>(value: unknown, allowed: readonly T[], field: string, fallback?: T): T {
  if (value === undefined || value === '') {
    if (fallback !== undefined) return fallback;
    throw invalidArgument(`'${field}' is required but not specified`);
  }
  if (!allowed.includes(value as T)) throw invalidArgument(`Invalid value at '${field}', "${String(value)}"`);
  return value as T;
}

const inputOption = (value: unknown) => option<ValueInputOption>(value, ['RAW', 'USER_ENTERED'], 'valueInputOption');
const renderOption = (value: unknown) => option<ValueRenderOption>(value, ['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'], 'valueRenderOption', 'FORMATTED_VALUE');
const dimension = (value: unknown) => option<MajorDimension>(value, ['ROWS', 'COLUMNS'], 'majorDimension', 'ROWS');

function valuesBody({ body, range }: Call): WriteInput {
  if (body.values !== undefined && (!Array.isArray(body.values) || !body.values.every(Array.isArray))) throw invalidArgument("Invalid value at 'data.values'");
  return { range, values: (body.values as unknown[][]) ?? [], majorDimension: dimension(body.majorDimension) };
}

/** `values/{range}` followed by an optional `:verb`; the range arrives percent-encoded. */
function rangeTail(verb?: string) {
  return (tail: string) => {
    const match = /^\/values\/([^/]+)$/.exec(tail);
    if (!match) return undefined;
    const raw = match[1];
    if (verb ? !raw.endsWith(`:${verb}`) : /:(append|clear)$/.test(raw)) return undefined;
    return { range: decodeURIComponent(verb ? raw.slice(0, -verb.length - 1) : raw) };
  };
}
const exact = (expected: string) => (tail: string) => (tail === expected ? {} : undefined);

function withUpdatedData<T extends { updatedRange: string }>(spreadsheet: Spreadsheet, result: T, include: unknown, render: unknown) {
  if (String(include) !== 'true') return result;
  return { ...result, updatedData: spreadsheet.read(result.updatedRange, 'ROWS', renderOption(render)) };
}

const routes: Route[] = [
  { method: 'GET', kind: 'read', match: exact(''), run: (s) => s.describe() },
  {
    method: 'GET', kind: 'read', match: rangeTail(),
    run: (s, { query: q, range }) => s.read(range, dimension(one(q.majorDimension)), renderOption(one(q.valueRenderOption))),
  },
  {
    method: 'GET', kind: 'read', match: exact('/values:batchGet'),
    run: (s, { query: q }) => ({
      spreadsheetId: s.spreadsheetId,
      valueRanges: many(q.ranges).map((range) => s.read(range, dimension(one(q.majorDimension)), renderOption(one(q.valueRenderOption)))),
    }),
  },
  {
    method: 'PUT', kind: 'write', match: rangeTail(),
    run: (s, { body, query: q, range }) => {
      const input = inputOption(one(q.valueInputOption));
      const result = s.apply(s.planWrite(valuesBody({ body, query: q, range }), input));
      return withUpdatedData(s, result, one(q.includeValuesInResponse), one(q.responseValueRenderOption));
    },
  },
  {
    method: 'POST', kind: 'write', match: rangeTail('append'),
    run: (s, { body, query: q, range }) => {
      const input = inputOption(one(q.valueInputOption));
      const insert = option(one(q.insertDataOption), ['OVERWRITE', 'INSERT_ROWS'], 'insertDataOption', 'OVERWRITE') === 'INSERT_ROWS';
      const { tableRange, updates } = s.append(valuesBody({ body, query: q, range }), input, insert);
      return { spreadsheetId: s.spreadsheetId, ...(tableRange ? { tableRange } : {}), updates: withUpdatedData(s, updates, one(q.includeValuesInResponse), one(q.responseValueRenderOption)) };
    },
  },
  {
    method: 'POST', kind: 'write', match: rangeTail('clear'),
    run: (s, { range }) => ({ spreadsheetId: s.spreadsheetId, clearedRange: s.clear(range) }),
  },
  {
    method: 'POST', kind: 'write', match: exact('/values:batchUpdate'),
    run: (s, { body }) => {
      const input = inputOption(body.valueInputOption);
      const data = Array.isArray(body.data) ? (body.data as { range?: unknown; values?: unknown; majorDimension?: unknown }[]) : [];
      // Every part is checked before any is written: one bad range rejects the whole batch.
      const plans = data.map((part) => s.planWrite({ range: String(part.range ?? ''), values: (part.values as unknown[][]) ?? [], majorDimension: dimension(part.majorDimension) }, input));
      const responses = plans.map((plan) => withUpdatedData(s, s.apply(plan), body.includeValuesInResponse, body.responseValueRenderOption));
      const sum = (field: 'updatedRows' | 'updatedColumns' | 'updatedCells') => responses.reduce((total, r) => total + (r[field] ?? 0), 0);
      return {
        spreadsheetId: s.spreadsheetId,
        totalUpdatedRows: sum('updatedRows'),
        totalUpdatedColumns: sum('updatedColumns'),
        totalUpdatedCells: sum('updatedCells'),
        totalUpdatedSheets: new Set(plans.filter((p) => p.lines.length > 0).map((p) => p.sheet.title)).size,
        responses,
      };
    },
  },
  {
    method: 'POST', kind: 'write', match: exact('/values:batchClear'),
    run: (s, { body }) => {
      const list = Array.isArray(body.ranges) ? body.ranges.map(String) : [];
      list.forEach((range) => s.resolve(range));
      return { spreadsheetId: s.spreadsheetId, clearedRanges: list.map((range) => s.clear(range)) };
    },
  },
];

function checkAccess(spreadsheet: Spreadsheet | undefined, caller: Caller, kind: QuotaKind): Spreadsheet {
  if (!spreadsheet) throw new GoogleApiError(404, 'NOT_FOUND', 'Requested entity was not found.');
  if (!spreadsheet.sharedWith.has(caller.email)) throw new GoogleApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
  if (kind === 'write' && !caller.canWrite) {
    throw new GoogleApiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT')]);
  }
  return spreadsheet;
}

/** The imitated Sheets v4 paths, plus Google's OAuth token endpoint at POST /token. */
export function registerSheetsApi(app: FastifyInstance, { state, auth, quotas }: Deps): void {
  // The token endpoint takes an HTML form, as Google's does.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post('/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    try {
      return await auth.exchange(form.grant_type, form.assertion);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return reply.code(400).send({ error: error.error, error_description: error.description });
    }
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const [, id = '', tail = ''] = /^\/v4\/spreadsheets\/([^/]+)(.*)$/.exec(path) ?? [];
    try {
      const found = routes.map((route) => ({ route, matched: route.method === request.method ? route.match(tail) : undefined })).find((r) => r.matched);
      if (!found) throw new GoogleApiError(404, 'NOT_FOUND', `Method not found: ${request.method} ${path}`);
      const caller = await auth.authenticate(request.headers.authorization);
      const { route, matched } = found;
      quotas.take(caller.email, route.kind);
      const spreadsheet = checkAccess(state.get(decodeURIComponent(id)), caller, route.kind);
      return route.run(spreadsheet, { body: (request.body ?? {}) as Record<string, unknown>, query: request.query as Query, range: matched!.range ?? '' });
    } catch (error) {
      if (!(error instanceof GoogleApiError)) throw error;
      return reply.code(error.code).send(error.toBody());
    }
  };
  app.route({ method: ['GET', 'PUT', 'POST'], url: '/v4/spreadsheets/*', handler: handle });
}
