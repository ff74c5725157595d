/**
 * Following one run by its Server-Sent Events stream (`GET /api/admin/runs/<id>/events`): a
 * `progress` event carries the run at each change (its id is the run's version, so the browser's
 * reconnect resumes after it), a comment every 15 s keeps the connection open, and `end` says the
 * run finished; the stream closes then, and so does this (a closed EventSource would reconnect).
 */
import type { RunView } from '@bo/proto';
import { runOfEvent } from './model';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed';

export interface RunStreamHandlers {
  onRun(run: Partial<RunView> & Pick<RunView, 'id' | 'version'>): void;
  onEnd(): void;
  onState(state: StreamState): void;
}

/** The part of EventSource this uses (a test passes its own). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

const CLOSED = 2;

/** Opens the stream; the answer closes it (on unmount, on leaving the run). Once closed, nothing more is reported. */
export function followRunEvents(
  url: string,
  handlers: RunStreamHandlers,
  open: (url: string) => EventSourceLike = (address) => new EventSource(address, { withCredentials: true }) as unknown as EventSourceLike,
): () => void {
  let closed = false;
  const source = open(url);
  const close = () => {
    closed = true;
    source.close();
  };
  handlers.onState('connecting');
  source.onopen = () => {
    if (!closed) handlers.onState('live');
  };
  source.onerror = () => {
    if (closed) return;
    // The browser tries again by itself after a dropped connection; an answer that was not a
    // stream (404, 401) closes it for good.
    if (source.readyState === CLOSED) {
      closed = true;
      handlers.onState('failed');
    } else handlers.onState('reconnecting');
  };
  source.addEventListener('progress', (event) => {
    if (closed) return;
    const run = runOfEvent(event.data);
    if (run) handlers.onRun(run);
  });
  source.addEventListener('end', () => {
    if (closed) return;
    close();
    handlers.onState('ended');
    handlers.onEnd();
  });
  return close;
}
