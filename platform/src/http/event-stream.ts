import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A browser's stream gets a comment this often, so proxies and the browser keep it open. */
export const STREAM_HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** One event; `id` is what a reconnecting browser sends back as Last-Event-ID. */
  send(event: string, data: unknown, id?: string | number): void;
  /** Ends the stream (idempotent). */
  end(): void;
  readonly ended: boolean;
  /** The Last-Event-ID the browser reconnected with, as sent (empty on a first connect). */
  readonly lastEventId: string;
}

/**
 * Follows something that changes elsewhere (a run, a scrape job) as Server-Sent Events: the
 * response is taken over from Fastify, sent unbuffered with a heartbeat comment, and `look` is
 * called every `pollMs` until it ends the stream, the browser goes, or the server closes. A look
 * that throws (the database away a moment) is logged once per outage and tried again.
 */
export function followAsEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    pollMs: number;
    heartbeatMs?: number;
    /** Streams this server has open, so closing it ends them (see endStreamsOnClose). */
    open: Set<() => void>;
    look(stream: EventStream): Promise<void>;
  },
): FastifyReply {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  let ended = false;
  let poll: NodeJS.Timeout | undefined;
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), options.heartbeatMs ?? STREAM_HEARTBEAT_MS);
  const stream: EventStream = {
    lastEventId: String(request.headers['last-event-id'] ?? '').trim(),
    get ended() {
      return ended;
    },
    send(event, data, id) {
      if (ended) return;
      raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(poll);
      options.open.delete(stream.end);
      raw.end();
    },
  };
  options.open.add(stream.end);
  raw.on('close', stream.end);
  // The browser went while the stream was being set up: nothing to follow.
  if (raw.destroyed) stream.end();
  let unreadable = false;
  const next = async () => {
    if (ended) return;
    try {
      await options.look(stream);
      unreadable = false;
    } catch (error) {
      if (!unreadable) request.log.warn({ err: error }, 'event stream could not read what it follows; it looks again');
      unreadable = true;
    }
    if (!ended) poll = setTimeout(() => void next(), options.pollMs);
  };
  void next();
  return reply;
}

/** A stream never ends by itself while what it follows goes on: the server ends them all when it closes. */
export function endStreamsOnClose(app: FastifyInstance): Set<() => void> {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  return open;
}
