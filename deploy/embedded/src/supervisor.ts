import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** SIGTERM, then SIGKILL after this long (a container runtime's grace period, shortened). */
export const STOP_TIMEOUT_MS = 15_000;

/**
 * How soon a process that failed is started again: at once the first time, then after a wait
 * doubling from `firstMs` up to `maxMs`, and at once again after it ran healthy for
 * `healthyAfterMs` (what Kubernetes does, on a scale for one machine).
 */
export const RESTART_BACKOFF = { firstMs: 500, maxMs: 30_000, healthyAfterMs: 60_000 };

/** SIGTERM, as a container runtime sends it; SIGKILL after the timeout. Resolves with the exit code. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

export interface SupervisedProcess {
  /** The process running now (a new one after each restart). */
  readonly child: ChildProcess;
  /** How many times it was started again after a failure. */
  readonly restarts: number;
  /** Resolves when it ended on its own with exit code 0 (stopped by someone else): it is not started again. */
  readonly ended: Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL) and never starts it again; resolves with its exit code. */
  stop(): Promise<number | null>;
}

export interface SuperviseOptions {
  name: string;
  /** Starts the process and resolves once it serves (rejects when it cannot start). */
  start: () => Promise<ChildProcess>;
  /** Where the supervisor says what happened (a crash, a restart). */
  log: (line: string) => void;
  /** What the process last said before it failed, for the log line (when its output is not shown). */
  lastWords?: (child: ChildProcess) => string;
}

/**
 * Runs a process the way a container runtime's restart policy does: one that ends with a failure
 * (a non-zero exit code, as its last line leaves it, or a signal such as an OOM killer's SIGKILL)
 * is started again after a backoff, and again if that start fails; one that exits 0 was stopped on
 * purpose and stays stopped. The first start's failure is the caller's (a launcher stops there).
 */
export async function supervise(options: SuperviseOptions): Promise<SupervisedProcess> {
  let child = await options.start();
  let restarts = 0;
  let stopped = false;
  let pending: NodeJS.Timeout | undefined;
  let starting: Promise<unknown> | undefined;
  let endedOnItsOwn: () => void;
  const ended = new Promise<void>((resolve) => (endedOnItsOwn = resolve));
  const doubled = (waitMs: number) => Math.min(Math.max(waitMs * 2, RESTART_BACKOFF.firstMs), RESTART_BACKOFF.maxMs);

  const watch = (current: ChildProcess, startedAt: number, waitMs: number) => {
    current.once('exit', async (code, signal) => {
      if (stopped) return;
      if (code === 0) return endedOnItsOwn();
      const wait = Date.now() - startedAt >= RESTART_BACKOFF.healthyAfterMs ? 0 : waitMs;
      // Its last words may still be in the pipe when it exits: read them once its output closed (briefly: a child of its own may hold it).
      await Promise.race([once(current, 'close'), new Promise((resolve) => setTimeout(resolve, 1_000))]);
      const words = options.lastWords?.(current);
      options.log(`${options.name} ended with ${signal ? `signal ${signal}` : `exit code ${code}`}${words ? `: ${words}` : ''}; starting it again${wait ? ` in ${wait / 1000} s` : ''}`);
      if (!stopped) restartAfter(wait);
    });
  };
  const restartAfter = (waitMs: number) => {
    pending = setTimeout(() => {
      pending = undefined;
      const startedAt = Date.now();
      starting = options.start().then(
        (next) => {
          child = next;
          if (stopped) return;
          restarts++;
          options.log(`${options.name} is serving again (pid ${next.pid})`);
          watch(next, startedAt, doubled(waitMs));
        },
        (error: Error) => {
          if (stopped) return;
          options.log(`${options.name} did not start again (${error.message.split('\n')[0]}); trying again in ${doubled(waitMs) / 1000} s`);
          restartAfter(doubled(waitMs));
        },
      );
    }, waitMs);
  };
  watch(child, Date.now(), 0);

  return {
    get child() {
      return child;
    },
    get restarts() {
      return restarts;
    },
    ended,
    async stop() {
      stopped = true;
      clearTimeout(pending);
      await starting; // a start under way finishes first, so the process it makes is the one stopped
      return stopProcess(child);
    },
  };
}
