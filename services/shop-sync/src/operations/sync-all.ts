import type { Logger } from '@bo/platform';
import { runKind, type RunContext, type Runs } from '@bo/platform/runs';
import { productKey, runRowId, type PriceRow, type RunView, type SyncRun } from '@bo/proto';
import { WooCommerceError, type WooCommerceClient } from '../clients/woocommerce';
import { batchesOf, planSync, type PlannedUpdate } from '../domain/sync-plan';
import type { PrismaClient } from '../generated/prisma/client';
import { shopStore } from '../store/shop-store';
import type { PricePushes } from './price-pushes';

export const SYNC_RUN_KIND = 'woocommerce-sync';

export interface SheetRows {
  /** The sheet's rows, and whether they are the last good copy because the sheet could not be read. */
  read(): Promise<{ rows: PriceRow[]; stale: boolean }>;
}

export interface SyncRunnerDeps {
  prisma: PrismaClient;
  /** Null when no shop is configured: the route refuses before a run starts. */
  shop: WooCommerceClient | null;
  sheet: SheetRows;
  pushes: PricePushes;
  runs: Runs;
  batchSize: number;
  logger: Logger;
}

type Failure = { productName: string; error: string };
/** What the plan step keeps: a taken-up run sends the batches it planned, not a new plan. */
interface PlannedSync {
  sheetReadAt: string;
  total: number;
  skipped: number;
  invalid: Failure[];
  batches: { parentId: number | null; updates: PlannedUpdate[] }[];
}
interface BatchOutcome {
  synced: number;
  failures: Failure[];
  /** The shop refused the key: further batches are pointless. */
  refused: string | null;
}

const counts = ['total', 'processed', 'synced', 'failed', 'skipped', 'batchCalls'] as const;

/**
 * Sync of all mapped products as a `woocommerce-sync` run (one at a time): those whose sheet price
 * differs from their last synced price go to the shop in batches (products together, each
 * variable product's variations together, at most 100 per request). The plan and each batch are
 * steps, so a run whose process died is taken up from its next batch; each item's result is
 * counted and failures are named in the batch's step.
 */
export class SyncRunner {
  // A retry plans afresh: the kept plan holds the sheet's prices of when it was made.
  readonly kind = runKind(SYNC_RUN_KIND, (run) => this.execute(run), { exclusive: true, retry: 'restart' });

  constructor(private readonly deps: SyncRunnerDeps) {}

  /**
   * Starts a run, or joins the one pending or running (on any replica; a sync has no settings of its
   * own to differ by): `joined` says which.
   */
  async start(startedBy: string): Promise<{ runId: string; joined: boolean }> {
    const { run, joined } = await this.deps.runs.press(this.kind, { startedBy, waitMs: 0 });
    return { runId: run.id, joined };
  }

  /** A run as the WooCommerce page shows it. */
  async view(runId: string): Promise<SyncRun> {
    const id = runRowId(runId);
    return syncView(await this.deps.runs.get(id), await this.deps.runs.stepResults(id));
  }

  async latest(): Promise<SyncRun | null> {
    const [run] = await this.deps.runs.list({ kind: SYNC_RUN_KIND, limit: 1 });
    return run ? this.view(run.id) : null;
  }

  private async execute(run: RunContext<unknown>): Promise<void> {
    const { prisma } = this.deps;
    const shop = this.shop();
    const plan = await run.step('plan', async (): Promise<PlannedSync> => {
      // A shop that refuses the key fails the run at once, even when nothing differs.
      await shop.countProducts(run.signal);
      const sheet = await this.deps.sheet.read();
      if (sheet.stale) throw new Error('The price sheet could not be read (only its saved copy is available); nothing was sent');
      const sheetReadAt = new Date().toISOString();
      const mappings = await shopStore.listMappings(prisma);
      const planned = planSync(mappings, sheet.rows);
      return { sheetReadAt, total: mappings.length, skipped: planned.skipped.length, invalid: planned.invalid, batches: batchesOf(planned.updates, this.deps.batchSize) };
    });
    const tally = { total: plan.total, skipped: plan.skipped, failed: plan.invalid.length, synced: 0, batchCalls: 0, processed: plan.skipped + plan.invalid.length };
    run.progress({ current: tally.processed, total: tally.total, counters: tally });
    for (const [index, batch] of plan.batches.entries()) {
      const outcome = await run.step(`batch-${index + 1}`, () => this.sendBatch(batch.parentId, batch.updates, new Date(plan.sheetReadAt), run.signal));
      tally.batchCalls++;
      tally.processed += batch.updates.length;
      tally.synced += outcome.synced;
      tally.failed += outcome.failures.length;
      run.progress({ current: tally.processed, counters: tally });
      if (outcome.refused) throw new Error(outcome.refused);
    }
  }

  private shop(): WooCommerceClient {
    if (!this.deps.shop) throw new Error('WooCommerce is not configured');
    return this.deps.shop;
  }

  /** One batch request, then the edits made while it was out are pushed again. */
  private async sendBatch(parentId: number | null, updates: PlannedUpdate[], sheetReadAt: Date, signal: AbortSignal): Promise<BatchOutcome> {
    let results;
    try {
      results = await this.shop().batchUpdatePrices(parentId, updates.map(({ mapping, prices }) => ({ id: mapping.woocommerceId, ...prices })), signal);
    } catch (error) {
      // Cancelled mid-call: not this batch's outcome, so the step is not kept and a retry sends it again.
      if (signal.aborted) throw error;
      const message = (error as Error).message;
      const refused = error instanceof WooCommerceError && (error.status === 401 || error.status === 403);
      return { synced: 0, failures: updates.map(({ mapping }) => ({ productName: mapping.productName, error: message })), refused: refused ? message : null };
    }
    const synced = [];
    const failures: Failure[] = [];
    for (const [index, result] of results.entries()) {
      const { mapping } = updates[index];
      if (result.ok) synced.push({ mappingId: mapping.id, prices: { regular_price: result.item.regular_price, sale_price: result.item.sale_price }, permalink: result.item.permalink });
      else failures.push({ productName: mapping.productName, error: result.error });
    }
    await shopStore.recordSyncedMany(this.deps.prisma, synced);
    await this.replayEditsSince(sheetReadAt, updates);
    return { synced: synced.length, failures, refused: null };
  }

  /**
   * A price edited while the batch was out may have reached the shop before the batch's older
   * sheet price: push the newest edit of those products again, so the edit wins.
   */
  private async replayEditsSince(since: Date, updates: PlannedUpdate[]): Promise<void> {
    const edited = await shopStore.productsEditedSince(this.deps.prisma, updates.map(({ mapping }) => mapping.productName), since);
    for (const { mapping } of updates) {
      if (!edited.has(productKey(mapping.productName))) continue;
      await shopStore.forgetSyncedRevision(this.deps.prisma, mapping.id);
      await this.deps.pushes.pushLatest(mapping.productName).catch((error) => this.deps.logger.warn({ err: error, product: mapping.productName }, 'replaying an edit after the sync failed'));
    }
  }
}

const syncStatus: Record<RunView['status'], SyncRun['status']> = { pending: 'running', in_progress: 'running', completed: 'finished', failed: 'failed', cancelled: 'cancelled' };

/** The platform run as the page's sync run: its counters, and the failures its steps named. */
function syncView(run: RunView, steps: Map<string, unknown>): SyncRun {
  const plan = steps.get('plan') as PlannedSync | undefined;
  const failures = [...(plan?.invalid ?? []), ...[...steps].filter(([name]) => name.startsWith('batch-')).flatMap(([, outcome]) => (outcome as BatchOutcome).failures)];
  const counters = Object.fromEntries(counts.map((name) => [name, run.progress.counters[name] ?? 0])) as Record<(typeof counts)[number], number>;
  return { id: run.id, status: syncStatus[run.status], startedAt: run.createdAt, finishedAt: run.completedAt, ...counters, failures, error: run.lastError };
}
