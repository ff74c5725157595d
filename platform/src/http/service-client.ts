import type { AnyRouteContract } from '@bo/proto';
import type { z } from 'zod';
import { AppError } from '../errors';
import { CORRELATION_HEADER, currentCorrelationId } from '../logging';
import { IDENTITY_HEADER, type IdentitySigner } from '../identity';

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
export interface CallInput<C extends AnyRouteContract> {
  params?: InputOf<C['params']>;
  query?: InputOf<C['query']>;
  body?: InputOf<C['body']>;
  /** Overrides the client's timeout for this call (a long poll). */
  timeoutMs?: number;
  /** Aborts the call early (the caller's own deadline). */
  signal?: AbortSignal;
}

/** Another service answered with an error, or could not be reached (status 0), or timed out (status 504). */
export class ServiceCallError extends AppError {
  constructor(
    readonly service: string,
    status: number,
    message: string,
  ) {
    super(status === 0 ? 503 : status, 'service_call_failed', message);
    this.name = 'ServiceCallError';
  }
}

export interface ServiceClientOptions {
  /** Where the called service listens (its `<NAME>_URL`). */
  baseUrl: string;
  /** The calling process's signer: its own service identity, signed with its key (routes of access `internal` accept it). */
  signer: IdentitySigner;
  timeoutMs?: number;
}

/**
 * Calls another service's route through its contract, the way the gateway does: the caller's
 * signed service identity, the current correlation id, the path built from the contract, and the
 * reply parsed by the contract's schema. Errors carry the called service's `error` text.
 */
export class ServiceClient {
  constructor(private readonly options: ServiceClientOptions) {}

  /** How long a call may wait for its answer. */
  timeoutOf(input: Pick<CallInput<AnyRouteContract>, 'timeoutMs'> = {}): number {
    return input.timeoutMs ?? this.options.timeoutMs ?? 10_000;
  }

  async call<C extends AnyRouteContract>(contract: C, input: CallInput<C> = {}): Promise<z.output<C['reply']>> {
    const timeout = AbortSignal.timeout(this.timeoutOf(input));
    const response = await this.send(contract, input, timeout);
    const text = await response.text();
    let payload: unknown;
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      payload = undefined;
    }
    const where = whereOf(contract);
    if (!response.ok) {
      const message = (payload as { error?: unknown } | undefined)?.error;
      throw new ServiceCallError(contract.owner, response.status, typeof message === 'string' ? message : `${where} answered ${response.status}`);
    }
    const parsed = contract.reply.safeParse(payload);
    if (!parsed.success) throw new ServiceCallError(contract.owner, 502, `${where}: reply does not match its contract (${parsed.error.issues[0]?.message})`);
    return parsed.data as z.output<C['reply']>;
  }

  /**
   * Calls a route whose reply is a stream and hands back its body as it arrives: the timeout
   * bounds the wait for the answer to begin, not how long the stream lasts (abort `signal` to stop it).
   */
  async open<C extends AnyRouteContract>(contract: C, input: CallInput<C> = {}): Promise<ReadableStream<Uint8Array>> {
    const started = new AbortController();
    const timer = setTimeout(() => started.abort(new Error('no answer in time')), this.timeoutOf(input));
    try {
      const response = await this.send(contract, input, started.signal);
      if (!response.ok || !response.body) {
        const payload = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
        throw new ServiceCallError(contract.owner, response.status, typeof payload?.error === 'string' ? payload.error : `${whereOf(contract)} answered ${response.status}`);
      }
      return response.body;
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(contract: AnyRouteContract, input: CallInput<AnyRouteContract>, timeout: AbortSignal): Promise<Response> {
    const path = contract.path.replace(/:([A-Za-z]\w*)/g, (_, name: string) => encodeURIComponent(String((input.params as Record<string, unknown>)[name])));
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { [IDENTITY_HEADER]: this.options.signer.serviceHeader() };
    const correlationId = currentCorrelationId();
    if (correlationId) headers[CORRELATION_HEADER] = correlationId;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(url, {
        method: contract.method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        signal: input.signal ? AbortSignal.any([timeout, input.signal]) : timeout,
      });
    } catch (error) {
      const timedOut = timeout.aborted;
      throw new ServiceCallError(contract.owner, timedOut ? 504 : 0, `${whereOf(contract)}: ${timedOut ? 'no answer in time' : `unreachable (${(error as Error).message})`}`);
    }
  }
}

const whereOf = (contract: AnyRouteContract) => `${contract.owner} ${contract.method} ${contract.path}`;

/** How long a health check of another service may take. */
const HEALTH_TIMEOUT_MS = 2_000;

/** Whether another service answers its health check: null when it does, else why not (a config-status line). */
export async function serviceHealthProblem(name: string, url: string): Promise<string | null> {
  try {
    const response = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return response.ok ? null : `${name} answered ${response.status}`;
  } catch (error) {
    return `${name} is not reachable at ${url} (${(error as Error).message})`;
  }
}
