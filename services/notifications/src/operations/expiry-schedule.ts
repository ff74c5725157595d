/**
 * Runs the expiry check on its cron schedule (EXPIRY_CHECK_CRON, hourly by default), each turn
 * under the platform lock, so with several replicas one runs it and the others skip that turn.
 *
 * Why here and not the platform's Job runner: that runner is interval-based (everyMs) and this is
 * the only cron-scheduled work in the system; the lock it uses is infrastructure.lock, taken here
 * the same way (`job:<name>`). The lock only keeps replicas from doing the work twice; that a key
 * gets at most one reminder per expiry date is decided by the reminders row, also when the lease
 * runs out or an admin triggers a check at the same time.
 */
import cron from 'node-cron';
import type { Lock } from '@bo/platform/cache';
import type { Logger } from '@bo/platform';
import type { ExpiryCheckCounts } from '@bo/proto';

export const EXPIRY_CHECK_JOB = 'job:expiry-check';
/** Longer than a check ever runs; a replica that died holding it frees it after this. */
const LEASE_MS = 10 * 60_000;

export interface ExpirySchedule {
  stop(): Promise<void>;
}

export function scheduleExpiryCheck(deps: { expression: string; lock: Lock; logger: Logger; run: () => Promise<ExpiryCheckCounts>; leaseMs?: number }): ExpirySchedule {
  const running = new Set<Promise<void>>();
  const turn = async () => {
    try {
      const outcome = await deps.lock.withLock(EXPIRY_CHECK_JOB, deps.leaseMs ?? LEASE_MS, deps.run);
      if (outcome.acquired) deps.logger.info({ counts: outcome.result }, 'expiry check ran');
    } catch (error) {
      deps.logger.error({ err: error }, 'expiry check failed');
    }
  };
  const task = cron.schedule(
    deps.expression,
    () => {
      const current = turn().finally(() => running.delete(current));
      running.add(current);
      return current;
    },
    { name: 'expiry-check', noOverlap: true },
  );
  return {
    async stop() {
      await task.destroy();
      await Promise.all(running);
    },
  };
}
