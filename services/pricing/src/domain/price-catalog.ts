import type { Cache } from '@bo/platform/cache';
import { getJson, setJson } from '@bo/platform/cache';
import { serviceUnavailable, notFound, type Logger } from '@bo/platform';
import { productKey, type PriceRow } from '@bo/proto';
import { describeSheetError, type PriceSheet } from '../clients/price-sheet';
import { findRowIndex } from './price-rows';

const CACHE_KEY = 'prices:v1';

/** Where the last good copy of the sheet lives (pricing_data), and how an edit is recorded. */
export interface PriceSnapshotStore {
  load(): Promise<{ rows: PriceRow[]; lastUpdated: Date } | null>;
  replaceAll(rows: PriceRow[]): Promise<void>;
  /** Saves the edited row and enqueues pricing.price.updated in one transaction; returns the event's id. */
  recordEdit(row: PriceRow, previous: PriceRow | null): Promise<string>;
}

export interface PriceList {
  rows: PriceRow[];
  /** When the rows were read from the sheet. */
  fetchedAt: string;
  /** True when the sheet could not be reached and the last good copy is served instead. */
  stale: boolean;
  cached: boolean;
}

interface CachedPrices {
  rows: PriceRow[];
  fetchedAt: string;
}

/**
 * The price list with its three layers (the service's rules; it reaches the outside only through
 * the three interfaces it is given, so it has no I/O of its own): the Redis cache (fast path), the spreadsheet (truth), and
 * pricing_data (last good copy when the sheet is down). Concurrent misses share one sheet read,
 * because a service account gets only 60 reads a minute.
 */
export class PriceCatalog {
  private inflight: Promise<CachedPrices> | null = null;

  constructor(
    private readonly deps: {
      sheet: PriceSheet;
      cache: Cache;
      snapshots: PriceSnapshotStore;
      ttlSeconds: number;
      logger: Logger;
    },
  ) {}

  get sheetName(): string {
    return this.deps.sheet.sheetName;
  }

  get ttlSeconds(): number {
    return this.deps.ttlSeconds;
  }

  async list(): Promise<PriceList> {
    const cached = await this.cached();
    if (cached) return { ...cached, stale: false, cached: true };
    try {
      const fresh = await this.refresh();
      return { ...fresh, stale: false, cached: false };
    } catch (error) {
      const reason = describeSheetError(error);
      this.deps.logger.warn({ reason }, 'sheet read failed; serving the last good copy');
      const snapshot = await this.deps.snapshots.load();
      if (!snapshot) throw serviceUnavailable(`Price list unavailable: ${reason}, and no saved copy exists yet`);
      return { rows: snapshot.rows, fetchedAt: snapshot.lastUpdated.toISOString(), stale: true, cached: false };
    }
  }

  async get(product: string): Promise<PriceRow & { stale: boolean }> {
    const list = await this.list();
    const index = findRowIndex(list.rows, product);
    if (index < 0) throw notFound(`Product "${product}" not found in the price list`);
    return { ...list.rows[index], stale: list.stale };
  }

  /** Reads the sheet now (single-flight), refills the cache and the last good copy. */
  refresh(): Promise<CachedPrices> {
    this.inflight ??= (async () => {
      try {
        const rows = await this.deps.sheet.readRows();
        const fresh = { rows, fetchedAt: new Date().toISOString() };
        await setJson(this.deps.cache, CACHE_KEY, fresh, this.deps.ttlSeconds).catch((error) =>
          this.deps.logger.warn({ err: error }, 'price cache unavailable; serving uncached'),
        );
        // The copy is a fallback; failing to save it must not fail a read that succeeded.
        await this.deps.snapshots.replaceAll(rows).catch((error) => this.deps.logger.error({ err: error }, 'saving the last good copy failed'));
        return fresh;
      } finally {
        this.inflight = null;
      }
    })();
    return this.inflight;
  }

  async invalidate(): Promise<void> {
    await this.deps.cache.delete(CACHE_KEY);
  }

  /** Drops the cache and reads the sheet at once, so the operator sees whether it answers. */
  async reload(): Promise<CachedPrices> {
    await this.invalidate();
    try {
      return await this.refresh();
    } catch (error) {
      throw serviceUnavailable(`Could not reload the price list: ${describeSheetError(error)}`);
    }
  }

  /** The cached copy; a cache that does not answer counts as a miss, so Redis down costs speed, not prices. */
  private async cached(): Promise<CachedPrices | null> {
    try {
      return await getJson<CachedPrices>(this.deps.cache, CACHE_KEY);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'price cache unavailable; reading the sheet');
      return null;
    }
  }

  async cacheStatus() {
    const cached = await this.cached();
    if (!cached) return { cached: false, ageSeconds: null, ttlSeconds: this.deps.ttlSeconds };
    return {
      cached: true,
      ageSeconds: Math.max(0, Math.round((Date.now() - Date.parse(cached.fetchedAt)) / 1000)),
      ttlSeconds: this.deps.ttlSeconds,
    };
  }

  /**
   * Writes an edited row to the sheet (found by its product name, read fresh so a row moved by
   * someone in the sheet is not overwritten), records it with its event, and caches the sheet as
   * it now is.
   */
  async update(row: PriceRow, match: string): Promise<{ row: PriceRow; previous: PriceRow; eventId: string }> {
    let rows: PriceRow[];
    try {
      rows = await this.deps.sheet.readRows();
    } catch (error) {
      throw serviceUnavailable(`Could not update the price list: ${describeSheetError(error)}`);
    }
    const index = findRowIndex(rows, match);
    if (index < 0) throw notFound(`Product "${match}" not found in the price list`);
    const previous = rows[index];
    try {
      await this.deps.sheet.writeRow(index, row);
    } catch (error) {
      throw serviceUnavailable(`Could not update the price list: ${describeSheetError(error)}`);
    }
    const eventId = await this.deps.snapshots.recordEdit(row, previous);
    // The sheet as just read, with the edit: cached as is, so an edit costs no second read of the
    // sheet (Google allows 60 a minute) and the copy already holds the edited row.
    const edited = rows.map((current, position) => (position === index ? row : current));
    await setJson(this.deps.cache, CACHE_KEY, { rows: edited, fetchedAt: new Date().toISOString() }, this.deps.ttlSeconds).catch((error) =>
      this.deps.logger.warn({ err: error }, 'price cache unavailable; the next read goes to the sheet'),
    );
    return { row, previous, eventId };
  }

  /**
   * Merges rows into the sheet (the shop's export): an incoming row replaces the sheet row with
   * its woocommerceId, else the one with its SKU, else the one with its product name; the others
   * are appended. Each sheet row is replaced at most once.
   */
  async mergeRows(incoming: PriceRow[]): Promise<{ updated: number; appended: number; totalRows: number }> {
    try {
      const rows = await this.deps.sheet.readRows();
      const indexBy = (key: (row: PriceRow) => string) => new Map(rows.flatMap((row, index) => (key(row) ? [[key(row), index] as const] : [])));
      const byId = indexBy((row) => row.woocommerceId.trim());
      const bySku = indexBy((row) => row.description.trim());
      const byName = indexBy((row) => productKey(row.product));
      const taken = new Set<number>();
      const updates: { index: number; row: PriceRow }[] = [];
      const appended: PriceRow[] = [];
      for (const row of incoming) {
        const index = [byId.get(row.woocommerceId.trim()), row.description.trim() ? bySku.get(row.description.trim()) : undefined, byName.get(productKey(row.product))].find(
          (candidate) => candidate !== undefined && !taken.has(candidate),
        );
        if (index === undefined) appended.push(row);
        else {
          taken.add(index);
          updates.push({ index, row });
        }
      }
      await this.deps.sheet.writeRows(updates);
      await this.deps.sheet.appendRows(appended, rows.length);
      // Many rows changed: drop the cache and read the sheet as it now is.
      await this.invalidate();
      await this.refresh().catch((error) => this.deps.logger.warn({ reason: describeSheetError(error) }, 'refresh after the merge failed'));
      return { updated: updates.length, appended: appended.length, totalRows: rows.length + appended.length };
    } catch (error) {
      throw serviceUnavailable(`Could not write to the price list: ${describeSheetError(error)}`);
    }
  }
}
