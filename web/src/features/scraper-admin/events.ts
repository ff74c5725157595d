/**
 * Following a scrape job by its Server-Sent Events stream (`GET /api/scraper/jobs/<id>/progress`,
 * document 2 §4), as the Background work view follows a run (features/runs/events.ts): init with the
 * job, then job_start, page_start, page_complete and page_failed as its pages move, and
 * job_complete, job_failed or job_cancelled at its end, after which the stream is closed here (a
 * closed EventSource would otherwise reconnect). A dropped connection is the browser's to reopen
 * (it resumes after the last event id); one it gave up on (an answer that was no stream) is opened
 * again here after a pause, and its init reloads the job. What the dialog shows is `progressOf`'s.
 */
import type { EventSourceLike } from '../runs/events';
import { endingEvents, isActiveJob, progressEventList, type ScrapeJob, type ScrapeJobStatus, type ScrapeProgressEventName } from './api';

export type StreamState = 'connecting' | 'live' | 'lost' | 'ended';

export interface JobStreamHandlers {
  onEvent(name: ScrapeProgressEventName, data: unknown): void;
  onState(state: StreamState): void;
}

const CLOSED = 2;
/** A stream the browser gave up on is opened again after this long, then twice as long, up to the most. */
export const REOPEN_FIRST_MS = 3_000;
export const REOPEN_MOST_MS = 30_000;

const isEnding = (name: string) => (endingEvents as readonly string[]).includes(name);

/** Opens the stream; the answer closes it (on unmount, on closing the dialog). Once closed, nothing more is reported. */
export function followJobProgress(
  url: string,
  handlers: JobStreamHandlers,
  open: (url: string) => EventSourceLike = (address) => new EventSource(address, { withCredentials: true }) as unknown as EventSourceLike,
  timers: { set: (run: () => void, ms: number) => unknown; clear: (timer: unknown) => void } = {
    set: (run, ms) => setTimeout(run, ms),
    clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  },
): () => void {
  let closed = false;
  let source: EventSourceLike | null = null;
  let reopen: unknown = null;
  let pause = REOPEN_FIRST_MS;

  const close = () => {
    closed = true;
    if (reopen !== null) timers.clear(reopen);
    reopen = null;
    source?.close();
  };

  const connect = () => {
    reopen = null;
    const current = open(url);
    source = current;
    current.onopen = () => {
      if (closed || source !== current) return;
      pause = REOPEN_FIRST_MS;
      handlers.onState('live');
    };
    current.onerror = () => {
      if (closed || source !== current) return;
      handlers.onState('lost');
      // The browser tries again by itself after a dropped connection; an answer that was not a
      // stream (a 502 while the service restarts, say) closes it for good: opened again here.
      if (current.readyState === CLOSED) {
        current.close();
        reopen = timers.set(connect, pause);
        pause = Math.min(pause * 2, REOPEN_MOST_MS);
      }
    };
    for (const name of progressEventList) {
      current.addEventListener(name, (event) => {
        if (closed || source !== current) return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return; // not an event of the contract's
        }
        // Events flow again: whatever was lost is back.
        handlers.onState('live');
        handlers.onEvent(name, data);
        if (isEnding(name)) {
          close();
          handlers.onState('ended');
        }
      });
    }
  };

  handlers.onState('connecting');
  connect();
  return close;
}

/** What the Scraping Progress dialog shows of a job. */
export interface JobProgress {
  job: ScrapeJob | null;
  status: ScrapeJobStatus;
  currentPage: number;
  totalPages: number;
  totalProducts: number;
  /** The page a page_start named last (the status text's 'Scraping page N...'). */
  activePage: number | null;
  /** A page's error (page_failed) until the next page completes; the job's own error once it failed. */
  error: string | null;
  /** When the elapsed timer started (ms since the epoch); null before. */
  timerStartedAt: number | null;
  /** When the job ended, for a timer that stops there. */
  endedAt: number | null;
}

export const initialProgress = (job: ScrapeJob | null = null): JobProgress =>
  job ? fromJob(job, Date.now()) : { job: null, status: 'pending', currentPage: 0, totalPages: 0, totalProducts: 0, activePage: null, error: null, timerStartedAt: null, endedAt: null };

const isJob = (data: unknown): data is ScrapeJob =>
  typeof data === 'object' && data !== null && typeof (data as ScrapeJob).id === 'number' && typeof (data as ScrapeJob).status === 'string' && typeof (data as ScrapeJob).totalPages === 'number';

const numberField = (data: unknown, name: string): number | null => {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};
const textField = (data: unknown, name: string): string | null => {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The dialog's state from the job as a whole (init): the timer from its start while it moves, stopped at its end. */
function fromJob(job: ScrapeJob, now: number): JobProgress {
  const started = job.startedAt ? Date.parse(job.startedAt) : NaN;
  const completed = job.completedAt ? Date.parse(job.completedAt) : NaN;
  const active = isActiveJob(job);
  return {
    job,
    status: job.status,
    currentPage: job.currentPage,
    totalPages: job.totalPages,
    totalProducts: job.totalProducts,
    activePage: null,
    error: job.error,
    // A job still waiting counts from now; job_start restarts the timer.
    timerStartedAt: Number.isNaN(started) ? (active ? now : null) : Math.min(started, now),
    endedAt: active ? null : Number.isNaN(completed) ? now : completed,
  };
}

/**
 * Document 2 §4's events applied to what the dialog shows: init loads the job; job_start puts it in
 * progress and restarts the timer; page_start names the page being read; page_complete moves the
 * pages and products on and clears the last error; page_failed shows its error ('Unknown error'
 * without one); the three endings set the status (job_failed's error defaults to 'Job failed').
 * `defaults` are those two texts, in the page's language.
 */
export function progressOf(state: JobProgress, name: ScrapeProgressEventName, data: unknown, now: number, defaults: { pageError: string; jobError: string }): JobProgress {
  const job = isJob(data) ? data : null;
  switch (name) {
    case 'init':
      return job ? fromJob(job, now) : state;
    case 'job_start':
      return { ...(job ? fromJob(job, now) : state), status: 'in_progress', activePage: state.activePage, timerStartedAt: now, endedAt: null, error: null };
    case 'page_start':
      return { ...state, status: 'in_progress', activePage: numberField(data, 'pageNumber') ?? state.activePage };
    case 'page_complete':
      return {
        ...state,
        status: 'in_progress',
        // The job's counts as they now are (page_complete carries them); else one more page and its products.
        currentPage: Math.min(numberField(data, 'currentPage') ?? state.currentPage + 1, state.totalPages || Infinity),
        totalProducts: numberField(data, 'totalProducts') ?? state.totalProducts + (numberField(data, 'productsFound') ?? 0),
        error: null,
      };
    case 'page_failed':
      return { ...state, error: textField(data, 'error') ?? defaults.pageError };
    case 'job_complete':
    case 'job_failed':
    case 'job_cancelled': {
      const status: ScrapeJobStatus = name === 'job_complete' ? 'completed' : name === 'job_failed' ? 'failed' : 'cancelled';
      const base = job ? fromJob(job, now) : state;
      const error = name === 'job_failed' ? (job?.error ?? textField(data, 'error') ?? defaults.jobError) : name === 'job_complete' ? null : base.error;
      // Followed live, the timer stops now; a job that init said had ended keeps the times it had.
      const timer =
        state.endedAt !== null ? { timerStartedAt: state.timerStartedAt, endedAt: state.endedAt }
        : state.timerStartedAt !== null ? { timerStartedAt: state.timerStartedAt, endedAt: now }
        : { timerStartedAt: base.timerStartedAt, endedAt: base.endedAt ?? now };
      return { ...base, status, error, activePage: state.activePage, ...timer };
    }
    default:
      return state;
  }
}

/** Milliseconds the timer shows: from its start to the end, or to now while the job moves. */
export function elapsedMs(state: Pick<JobProgress, 'timerStartedAt' | 'endedAt'>, now: number): number {
  if (state.timerStartedAt === null) return 0;
  return Math.max(0, (state.endedAt ?? now) - state.timerStartedAt);
}
