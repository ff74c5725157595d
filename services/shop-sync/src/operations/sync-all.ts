import type { Logger } from '@bo/platform';
import { productKey, type PriceRow, type SyncRun } from '@bo/proto';
import { WooCommerceError, type WooCommerceClient } from '../clients/woocommerce';
import { batchesOf, planSync, type PlannedUpdate } from '../domain/sync-plan';
import type { PrismaClient, SyncRun as SyncRunRecord } from '../generated/prisma/client';
import { runView, shopStore } from '../store/shop-store';
import type { PricePushes } from './price-pushes';

/** The run's heartbeat while a slow batch is out: a run without one for 30 s is shown interrupted. */
const HEARTBEAT_MS = 5_000;

export interface SheetRows {
  /** The sheet's rows, and whether they are the last good copy because the sheet could not be read. */
  read(): Promise<{ rows: PriceRow[]; stale: boolean }>;
}

export interface SyncRunnerDeps {
  prisma: PrismaClient;
  shop: WooCommerceClient;
  sheet: SheetRows;
  pushes: PricePushes;
  batchSize: number;
  logger: Logger;
}

/**
 * Sync of all mapped products: those whose sheet price differs from their last synced price go to
 * the shop in batches (products together, each variable product's variations together, at most
 * 100 per request). Each item's result is recorded; failures are named. The run's progress is in
 * sync_runs, so the page follows it, and a run survives the request that started it.
 */
export class SyncRunner {
  constructor(private readonly deps: SyncRunnerDeps) {}

  /**
   * Starts a run, or joins the one already running (on any replica); resolves once it has a row
   * (`done` when it ends). The check and the new row are one transaction under an advisory lock,
   * so two presses make one run; a run whose process died stops counting as running once its
   * heartbeat is stale, so the next press starts afresh.
   */
  async start(): Promise<{ runId: number; done: Promise<void> }> {
    const { prisma } = this.deps;
    const decided = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('shop-sync:sync-all'))`);
      const latest = await shopStore.latestSyncRun(tx);
      if (latest && runView(latest).status === 'running') return { run: latest, joined: true };
      return { run: await shopStore.startSyncRun(tx), joined: false };
    });
    const done = decided.joined ? this.finished(decided.run.id) : this.execute(decided.run);
    // Nobody may be waiting any more (the reply went after 20 s): a failure is logged, never unhandled.
    return { runId: decided.run.id, done: done.catch((error) => this.deps.logger.error({ err: error, runId: decided.run.id }, 'sync run ended abnormally')) };
  }

  async view(runId: number): Promise<SyncRun> {
    const run = await shopStore.findSyncRun(this.deps.prisma, runId);
    if (!run) throw new Error(`sync run ${runId} vanished`);
    return runView(run);
  }

  private async finished(runId: number): Promise<void> {
    while ((await this.view(runId)).status === 'running') await new Promise((resolve) => setTimeout(resolve, 250));
  }

  private async execute(run: SyncRunRecord): Promise<void> {
    // Runs to its end whatever happens to the request that started it; failures end in the row.
    const { prisma, shop, logger } = this.deps;
    const heartbeat = setInterval(() => void shopStore.updateSyncRun(prisma, run.id, {}).catch(() => undefined), HEARTBEAT_MS);
    const counts = { total: 0, processed: 0, synced: 0, failed: 0, skipped: 0, batchCalls: 0, failures: [] as { productName: string; error: string }[] };
    const save = (extra: object = {}) => shopStore.updateSyncRun(prisma, run.id, { ...counts, ...extra });
    try {
      // A shop that refuses the key fails the run at once, even when nothing differs.
      await shop.countProducts();
      const sheet = await this.deps.sheet.read();
      if (sheet.stale) throw new Error('The price sheet could not be read (only its saved copy is available); nothing was sent');
      const sheetReadAt = new Date();
      const mappings = await shopStore.listMappings(prisma);
      const plan = planSync(mappings, sheet.rows);
      counts.total = mappings.length;
      counts.skipped = plan.skipped.length;
      counts.failed = plan.invalid.length;
      counts.failures.push(...plan.invalid);
      counts.processed = counts.skipped + counts.failed;
      await save();
      for (const batch of batchesOf(plan.updates, this.deps.batchSize)) {
        const aborted = await this.sendBatch(batch.parentId, batch.updates, counts);
        counts.processed += batch.updates.length;
        await save();
        await this.replayEditsSince(sheetReadAt, batch.updates);
        if (aborted) throw aborted;
      }
      await save({ status: 'finished', finishedAt: new Date() });
    } catch (error) {
      logger.warn({ err: error, runId: run.id }, 'sync of all products stopped');
      await save({ status: 'failed', finishedAt: new Date(), error: (error as Error).message });
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** One batch request; returns the error that makes further batches pointless (the shop refused the key). */
  private async sendBatch(parentId: number | null, updates: PlannedUpdate[], counts: { synced: number; failed: number; batchCalls: number; failures: { productName: string; error: string }[] }) {
    counts.batchCalls++;
    let results;
    try {
      results = await this.deps.shop.batchUpdatePrices(parentId, updates.map(({ mapping, prices }) => ({ id: mapping.woocommerceId, ...prices })));
    } catch (error) {
      const message = (error as Error).message;
      counts.failed += updates.length;
      counts.failures.push(...updates.map(({ mapping }) => ({ productName: mapping.productName, error: message })));
      return error instanceof WooCommerceError && (error.status === 401 || error.status === 403) ? error : null;
    }
    const synced = [];
    for (const [index, result] of results.entries()) {
      const { mapping } = updates[index];
      if (result.ok) synced.push({ mappingId: mapping.id, prices: { regular_price: result.item.regular_price, sale_price: result.item.sale_price }, permalink: result.item.permalink });
      else counts.failures.push({ productName: mapping.productName, error: result.error });
    }
    counts.synced += synced.length;
    counts.failed += results.length - synced.length;
    await shopStore.recordSyncedMany(this.deps.prisma, synced);
    return null;
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
