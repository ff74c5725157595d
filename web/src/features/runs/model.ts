/**
 * The rules of the Background work view that need no server: which runs are still moving, what a
 * status looks like, how far a run is, how long it has taken, who started it, and how a run that
 * arrives (a progress event, a cancel's or a retry's answer) updates what the page holds. The lists
 * mirror proto's run contract (types only reach the bundle, zod does not); model.test.ts checks
 * they agree.
 */
import type { RunStatus, RunView, ServiceName } from '@bo/proto';
import type { RunsReply } from './api';

export const runStatusList = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];

/** The services whose runs the list may be narrowed to (the `service` filter: every process, the gateway's sweeps too). */
export const runServiceList = ['gateway', 'pricing', 'shop-sync', 'payments', 'streaming-keys', 'notifications', 'ai-chat', 'scraper'] as const satisfies readonly ServiceName[];

/** A run in one of these still changes: the page follows it. */
export const isActive = (run: Pick<RunView, 'status'>): boolean => run.status === 'pending' || run.status === 'in_progress';

/** Cancel is offered while the run may still stop, and disabled once asked for (it stops at its next step). */
export function cancelAction(run: Pick<RunView, 'status' | 'cancelRequested'>): 'enabled' | 'disabled' | 'hidden' {
  if (!isActive(run)) return 'hidden';
  return run.cancelRequested ? 'disabled' : 'enabled';
}

/** Retry is offered for a run that ended without finishing its work. */
export const canRetry = (run: Pick<RunView, 'status'>): boolean => run.status === 'failed' || run.status === 'cancelled';

export type BadgeTone = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'cancelling';

/** What a status badge shows: a running run asked to cancel reads 'Cancelling' until it stops. */
export function statusBadge(run: Pick<RunView, 'status' | 'cancelRequested'>): { tone: BadgeTone; palette: string } {
  const tone: BadgeTone = isActive(run) && run.cancelRequested ? 'cancelling' : run.status;
  return { tone, palette: palettes[tone] };
}

const palettes: Record<BadgeTone, string> = {
  pending: 'gray',
  in_progress: 'blue',
  completed: 'green',
  failed: 'red',
  cancelled: 'orange',
  cancelling: 'yellow',
};

export interface ProgressShape {
  /** Whole percent, 0–100; null when the total is not known. */
  percent: number | null;
  /** A bar that moves without a figure: the run is moving and has not counted its work yet. */
  indeterminate: boolean;
  /** Whether a bar is worth drawing at all (a finished run with no total shows its count only). */
  bar: boolean;
}

export function progressShape(run: Pick<RunView, 'status' | 'progress'>): ProgressShape {
  const { current, total } = run.progress;
  if (total === null) return { percent: null, indeterminate: isActive(run), bar: isActive(run) };
  const percent = total <= 0 ? 100 : Math.round((Math.min(Math.max(current, 0), total) / total) * 100);
  return { percent, indeterminate: false, bar: true };
}

/** Milliseconds from the start to the end, or to `now` while the run moves; null before it starts. */
export function runDurationMs(run: Pick<RunView, 'status' | 'startedAt' | 'completedAt'>, now: number): number | null {
  if (!run.startedAt) return null;
  const started = Date.parse(run.startedAt);
  const ended = run.completedAt ? Date.parse(run.completedAt) : isActive(run) ? now : NaN;
  if (Number.isNaN(started) || Number.isNaN(ended)) return null;
  return Math.max(0, ended - started);
}

export type DurationUnit = 'seconds' | 'minutes' | 'hours' | 'days';

/**
 * A duration as its two largest units, the second zero-padded ('3m 05s', '2h 04m'), for a text
 * `runs.duration.<unit>` with placeholders {d}, {h}, {m} and {s}.
 */
export function durationParts(ms: number): { unit: DurationUnit; d: string; h: string; m: string; s: string } {
  const totalSeconds = Math.floor(Math.max(0, ms) / 1000);
  const d = Math.floor(totalSeconds / 86_400);
  const h = Math.floor((totalSeconds % 86_400) / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const unit: DurationUnit = d > 0 ? 'days' : h > 0 ? 'hours' : m > 0 ? 'minutes' : 'seconds';
  const pad = (value: number) => String(value).padStart(2, '0');
  // The largest unit unpadded, the one after it padded.
  return {
    unit,
    d: String(d),
    h: unit === 'days' ? pad(h) : String(h),
    m: unit === 'hours' ? pad(m) : String(m),
    s: unit === 'minutes' ? pad(s) : String(s),
  };
}

/** `admin:<username>`, `schedule:<name>`, `event:<name>` or `system` (anything else is shown as it came). */
export function startedByOf(startedBy: string): { by: 'admin' | 'schedule' | 'event' | 'system' | 'other'; name: string } {
  if (startedBy === 'system') return { by: 'system', name: '' };
  const colon = startedBy.indexOf(':');
  const prefix = colon > 0 ? startedBy.slice(0, colon) : '';
  if (prefix === 'admin' || prefix === 'schedule' || prefix === 'event') return { by: prefix, name: startedBy.slice(colon + 1) };
  return { by: 'other', name: startedBy };
}

/** The first `max` characters of a text and an ellipsis, on one line. */
export function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Newest first by creation time (the gateway merges several services' lists). */
export const newestFirst = (runs: readonly RunView[]): RunView[] => [...runs].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));

/**
 * A run as it arrived (a progress event carries no steps or result) laid over the one held: an
 * arrival older than what is held (a lower version) changes nothing.
 */
export function mergeRun(held: RunView, arrived: Partial<RunView> & Pick<RunView, 'id' | 'version'>): RunView {
  if (arrived.version < held.version) return held;
  return { ...held, ...arrived, steps: arrived.steps ?? held.steps, result: arrived.result === undefined ? held.result : arrived.result };
}

/** Of two copies of a run (its own answer, its row in a polled list), the later one. */
export function newerOf(a: RunView | undefined, b: RunView | undefined): RunView | undefined {
  if (!a || !b) return a ?? b;
  return b.version > a.version ? b : a;
}

const isRunsReply = (data: unknown): data is RunsReply =>
  typeof data === 'object' && data !== null && Array.isArray((data as RunsReply).data) && Array.isArray((data as RunsReply).unreachable);
const isRun = (data: unknown): data is RunView => typeof data === 'object' && data !== null && typeof (data as RunView).id === 'string' && 'progress' in data;

/**
 * What a cached answer under the runs' keys becomes once `arrived` is known: a list with that run
 * gets the newer row, the run's own answer is merged, anything else stays as it is (and the same
 * object, so nothing re-renders).
 */
export function patchCached(cached: unknown, arrived: Partial<RunView> & Pick<RunView, 'id' | 'version'>): unknown {
  if (isRunsReply(cached)) {
    if (!cached.data.some((run) => run.id === arrived.id)) return cached;
    return { ...cached, data: cached.data.map((run) => (run.id === arrived.id ? mergeRun(run, arrived) : run)) };
  }
  if (isRun(cached) && cached.id === arrived.id) return mergeRun(cached, arrived);
  return cached;
}

/**
 * A run fetched again laid over the one held: when the progress stream has already moved past it
 * (a higher version), the held run stays, so a poll answered a moment earlier does not send a bar
 * backwards; but it takes the fetched steps when they are more (progress events carry none, and
 * steps only grow) and the fetched result when it has none.
 */
export function laterRun(held: RunView, fetched: RunView): RunView {
  if (fetched.version >= held.version) return fetched;
  const steps = fetched.steps.length > held.steps.length ? fetched.steps : held.steps;
  const result = held.result ?? fetched.result;
  return steps === held.steps && result === held.result ? held : { ...held, steps, result };
}

/** A refetched list laid over the one held, row by row as laterRun does. */
export function keepNewerRows(held: RunsReply | undefined, fetched: RunsReply): RunsReply {
  if (!held) return fetched;
  const heldById = new Map(held.data.map((run) => [run.id, run]));
  let changed = false;
  const data = fetched.data.map((run) => {
    const before = heldById.get(run.id);
    const kept = before ? laterRun(before, run) : run;
    if (kept !== run) changed = true;
    return kept;
  });
  return changed ? { ...fetched, data } : fetched;
}

/** The run a `progress` event carries, or null when its data is not one. */
export function runOfEvent(data: string): (Partial<RunView> & Pick<RunView, 'id' | 'version'>) | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const run = parsed as Partial<RunView>;
    if (typeof run.id !== 'string' || typeof run.version !== 'number') return null;
    return run as Partial<RunView> & Pick<RunView, 'id' | 'version'>;
  } catch {
    return null;
  }
}
