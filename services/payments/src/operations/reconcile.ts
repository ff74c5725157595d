import type { Logger } from '@bo/platform';
import { cronEvery, runKind, schedule, type ProgressUpdate } from '@bo/platform/runs';
import type { PrismaClient } from '../generated/prisma/client';
import { invoiceStore } from '../store/invoice-store';
import type { InvoiceDesk } from './invoice-desk';

/** Invoices looked at per run; the rest wait for the next run, oldest check first. */
const BATCH = 200;
/** QPay checks in flight at once (QPay publishes no rate limit; four keeps a backlog short without a burst). */
const CONCURRENT_CHECKS = 4;

/**
 * The safety net for lost callbacks (ADR 14): every run checks pending invoices with QPay's
 * payment check (each at most once per interval) and completes the paid ones; an unpaid invoice
 * past its expiry is cancelled at QPay and here (a payment found at that last look completes it
 * instead). A `qpay-reconciliation` run every RECONCILE_EVERY_MS on the scheduler (one replica
 * runs each tick; one run at a time), its counts as progress.
 */
export function reconciliation(deps: { prisma: PrismaClient; desk: InvoiceDesk; everyMs: number; logger: Logger }) {
  const runOnce = async (progress: (update: ProgressUpdate) => void = () => undefined, signal?: AbortSignal) => {
    const due = await invoiceStore.dueForReconciliation(deps.prisma, deps.everyMs, BATCH);
    const counts = { checked: 0, completed: 0, expired: 0, failed: 0 };
    let settled = 0;
    progress({ current: 0, total: due.length });
    const settle = async (invoice: (typeof due)[number]) => {
      try {
        const outcome = await deps.desk.check(invoice, 'reconciliation');
        counts.checked++;
        if (outcome.completed) counts.completed++;
        else if (outcome.invoice.status === 'pending' && outcome.paidAmount === 0 && invoice.expiresAt.getTime() <= Date.now()) {
          await deps.desk.cancel(outcome.invoice, 'expired');
          counts.expired++;
        }
      } catch (error) {
        counts.failed++;
        deps.logger.warn({ err: error, invoiceId: invoice.invoiceId }, 'reconciliation could not settle an invoice; the next run tries again');
      }
      progress({ current: ++settled, counters: counts });
    };
    // A few checks at a time: after an outage hundreds of callbacks may have been refused, and one
    // QPay round trip after another would leave the last buyer waiting minutes for a key.
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENT_CHECKS, due.length) }, async () => {
        // A cancel stops it between invoices; each invoice's check is whole.
        while (next < due.length && !signal?.aborted) await settle(due[next++]);
      }),
    );
    return counts;
  };
  const run = runKind('qpay-reconciliation', (context) => runOnce((update) => context.progress(update), context.signal), { exclusive: true });
  return { runOnce, run, schedule: schedule('qpay-reconciliation', cronEvery(deps.everyMs), run) };
}
