import type { Lock } from '../cache';
import type { Logger } from '../logging';

/** Periodic work of a service, e.g. the hourly expiry check. */
export interface Job {
  name: string;
  everyMs: number;
  /**
   * How long one run may hold the lock before another replica may take it (a crashed holder never
   * releases it). It must exceed the longest run; defaults to the interval, and at least a minute.
   */
  leaseMs?: number;
  run(): Promise<void>;
}

/**
 * Runs each job every `everyMs`, each run under the service's lock (`job:<name>`), so with several
 * replicas one runs it and the others skip that turn. A run still going when the next turn comes
 * is not started twice. A failing run is logged; the next turn tries again.
 */
export function startJobs(jobs: Job[], deps: { lock: Lock; logger: Logger }): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const busy = new Set<string>();
  const timers = jobs.map((job) =>
    setInterval(() => {
      if (busy.has(job.name)) return;
      busy.add(job.name);
      const turn = deps.lock
        .withLock(`job:${job.name}`, job.leaseMs ?? Math.max(job.everyMs, 60_000), () => job.run())
        .catch((error) => deps.logger.error({ err: error, job: job.name }, 'job run failed'))
        .finally(() => {
          busy.delete(job.name);
          running.delete(turn);
        });
      running.add(turn);
    }, job.everyMs),
  );
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running);
    },
  };
}
