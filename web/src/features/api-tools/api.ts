/**
 * The API tools' calls: the gateway's OpenAPI document (`GET /api/openapi.json`, built from every
 * route contract: gateway/src/domain/openapi.ts), and any call the catalogue's Test or the request
 * tester makes, on this origin with the admin's session (lib/api.ts). The request log they show
 * is the overview's query (features/overview/queries.ts).
 */
import type { RouteAccess } from '@bo/proto';
import type { Method } from '../../lib/api';
import { apiKey } from '../../lib/paths';

export type { RequestLogEntry } from '../overview/api';

/** What `GET /api/openapi.json` answers, as far as the catalogue reads it. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | unknown> | undefined>;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: unknown; enum?: unknown[] };
  example?: unknown;
}

export interface OpenApiMedia {
  example?: unknown;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  /** Who may call it (the contract's access; internal routes are never in the document). */
  'x-access'?: Exclude<RouteAccess, 'internal'>;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, OpenApiMedia> };
  responses?: Record<string, { content?: Record<string, OpenApiMedia> } | undefined>;
}

export const apiToolsKeys = {
  /** The document as it is served (its contract's reply is any JSON object: OpenApiDocument reads what the catalogue needs). */
  document: apiKey('/api/openapi.json'),
} as const;

/** One call the tools make: a catalogue operation's sample, or what the request tester was given. */
export interface ApiCall {
  method: Method;
  /** Always a path on this origin (model.ts: `sameOriginPath`, `testRequestOf`). */
  path: string;
  body?: unknown;
}

/** The request tester offers these two (document 1, api-tools). */
export const testerMethods = ['GET', 'POST'] as const satisfies readonly Method[];
export type TesterMethod = (typeof testerMethods)[number];

export const DEFAULT_TESTER_PATH = '/api/prices';
/** Recent activity lists this many of the latest logged requests. */
export const RECENT_ACTIVITY_ROWS = 10;
