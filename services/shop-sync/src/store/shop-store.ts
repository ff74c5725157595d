import { productKey, schemaOf, type PricePush, type ProductMapping, type ShopItem, type WoocommerceSyncOutcome } from '@bo/proto';
import type { WooPrices } from '../clients/woocommerce';
import { payablePrice } from '../domain/prices';
import type { Prisma, PrismaClient, PricePush as PricePushRecord, WoocommerceProductMapping } from '../generated/prisma/client';

/** The service's database client or one of its transactions: store functions run in either, never opening their own. */
export type ShopDb = PrismaClient | Prisma.TransactionClient;

/** Raw SQL is not schema-qualified by Prisma (see platform's prisma-client). */
const SHOP_SYNC_TABLES = { mappings: `"${schemaOf('shop-sync')}".woocommerce_product_mapping` };

export const mappingView = (record: WoocommerceProductMapping): ProductMapping => ({
  id: record.id,
  productName: record.productName,
  woocommerceId: record.woocommerceId,
  parentId: record.parentId,
  permalink: record.permalink,
  lastSynced: record.lastSynced?.toISOString() ?? null,
  lastSyncedPrice: record.lastSyncedPrice,
  lastSyncedRegularPrice: record.lastSyncedRegularPrice,
  lastSyncedSalePrice: record.lastSyncedSalePrice,
  mappedBy: record.mappedBy === 'auto' ? 'auto' : 'manual',
});

const pushView = (record: PricePushRecord): PricePush => ({
  eventId: record.eventId,
  productName: record.productName,
  revision: record.revision,
  regularPrice: record.regularPrice,
  salePrice: record.salePrice,
  outcome: record.outcome as PricePush['outcome'],
  error: record.error,
  createdAt: record.createdAt.toISOString(),
  decidedAt: record.decidedAt?.toISOString() ?? null,
});

/** The mapping table and price pushes through Prisma; the only place that touches shop-sync's tables. */
export const shopStore = {
  async listMappings(db: ShopDb) {
    return db.woocommerceProductMapping.findMany({ orderBy: { productName: 'asc' } });
  },

  async findMapping(db: ShopDb, productName: string) {
    return db.woocommerceProductMapping.findUnique({ where: { productKey: productKey(productName) } });
  },

  /**
   * Maps a name to a shop item. A different item than before starts from "never synced"; the same
   * item keeps its sync record. Returns whether a mapping already existed.
   */
  async saveMapping(db: ShopDb, productName: string, item: Pick<ShopItem, 'id' | 'parentId' | 'permalink'>, mappedBy: 'manual' | 'auto') {
    const key = productKey(productName);
    const existing = await db.woocommerceProductMapping.findUnique({ where: { productKey: key } });
    const target = { productName: productName.trim(), woocommerceId: item.id, parentId: item.parentId || null, permalink: item.permalink || null, mappedBy };
    const neverSynced = { lastSynced: null, lastSyncedPrice: null, lastSyncedRegularPrice: null, lastSyncedSalePrice: null, lastSyncedRevision: null };
    if (!existing) return { record: await db.woocommerceProductMapping.create({ data: { productKey: key, ...target } }), replaced: false };
    const data = existing.woocommerceId === item.id ? target : { ...target, ...neverSynced };
    return { record: await db.woocommerceProductMapping.update({ where: { productKey: key }, data }), replaced: true };
  },

  /** Saves auto-map's matches: new names in one insert, changed ones one by one (each keeps or resets its sync record). */
  async saveAutoMappings(db: ShopDb, writes: { productName: string; item: Pick<ShopItem, 'id' | 'parentId' | 'permalink'> }[], existingNames: Set<string>): Promise<void> {
    const fresh = writes.filter((write) => !existingNames.has(productKey(write.productName)));
    await db.woocommerceProductMapping.createMany({
      data: fresh.map(({ productName, item }) => ({ productName: productName.trim(), productKey: productKey(productName), woocommerceId: item.id, parentId: item.parentId || null, permalink: item.permalink || null, mappedBy: 'auto' })),
      skipDuplicates: true,
    });
    for (const write of writes.filter((candidate) => existingNames.has(productKey(candidate.productName)))) await shopStore.saveMapping(db, write.productName, write.item, 'auto');
  },

  async deleteMapping(db: ShopDb, productName: string): Promise<boolean> {
    const { count } = await db.woocommerceProductMapping.deleteMany({ where: { productKey: productKey(productName) } });
    return count > 0;
  },

  /** A product renamed in the sheet keeps its mapping under the new name (unless the new name has one already). */
  async followRename(db: ShopDb, from: string, to: string): Promise<void> {
    if (productKey(from) === productKey(to)) return;
    if (await db.woocommerceProductMapping.findUnique({ where: { productKey: productKey(to) } })) return;
    await db.woocommerceProductMapping.updateMany({ where: { productKey: productKey(from) }, data: { productName: to.trim(), productKey: productKey(to) } });
  },

  /** Records what the shop now has for many items at once (a batch's results), in one statement. */
  async recordSyncedMany(db: ShopDb, items: { mappingId: number; prices: WooPrices; permalink: string }[]): Promise<void> {
    if (items.length === 0) return;
    const rows = items.map(({ mappingId, prices, permalink }) => ({ id: mappingId, price: payablePrice(prices), regular: prices.regular_price, sale: prices.sale_price, permalink }));
    await db.$executeRawUnsafe(
      `UPDATE ${SHOP_SYNC_TABLES.mappings} AS m
       SET last_synced = now(), last_synced_price = r.price, last_synced_regular_price = r.regular, last_synced_sale_price = r.sale,
           permalink = COALESCE(NULLIF(r.permalink, ''), m.permalink), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id integer, price text, regular text, sale text, permalink text)
       WHERE m.id = r.id`,
      JSON.stringify(rows),
    );
  },

  /**
   * Records what the shop now has. With a revision (a price edit), the record is written only if
   * no newer revision was recorded, so a late, older push cannot claim the shop's state.
   */
  async recordSynced(db: ShopDb, mappingId: number, prices: WooPrices, extra: { revision?: number; permalink?: string } = {}): Promise<void> {
    const data = {
      lastSynced: new Date(),
      lastSyncedPrice: payablePrice(prices),
      lastSyncedRegularPrice: prices.regular_price,
      lastSyncedSalePrice: prices.sale_price,
      ...(extra.permalink ? { permalink: extra.permalink } : {}),
      ...(extra.revision !== undefined ? { lastSyncedRevision: extra.revision } : {}),
    };
    const newer = extra.revision === undefined ? {} : { OR: [{ lastSyncedRevision: null }, { lastSyncedRevision: { lt: extra.revision } }] };
    await db.woocommerceProductMapping.updateMany({ where: { id: mappingId, ...newer }, data });
  },

  /** The shop's price no longer carries the recorded revision (a sync overwrote it): the next push sends the newest edit again. */
  async forgetSyncedRevision(db: ShopDb, mappingId: number): Promise<void> {
    await db.woocommerceProductMapping.update({ where: { id: mappingId }, data: { lastSyncedRevision: null } });
  },

  /** Records a price edit and its first decision; a redelivered edit is already there and changes nothing. */
  async recordPricePush(db: ShopDb, push: { eventId: string; productName: string; revision: number; regularPrice: string; salePrice: string; outcome: PricePush['outcome']; error?: string }) {
    await db.pricePush.upsert({
      where: { eventId: push.eventId },
      create: { ...push, productKey: productKey(push.productName), decidedAt: push.outcome === 'pending' ? null : new Date() },
      update: {},
    });
  },

  async findPricePush(db: ShopDb, eventId: string) {
    return db.pricePush.findUnique({ where: { eventId } });
  },

  /** The newest edit of a product: what the shop should show. */
  async latestPricePush(db: ShopDb, productName: string) {
    return db.pricePush.findFirst({ where: { productKey: productKey(productName) }, orderBy: { revision: 'desc' } });
  },

  /** Which of these products were edited since a moment (one query for a whole batch), by product key. */
  async productsEditedSince(db: ShopDb, productNames: string[], since: Date): Promise<Set<string>> {
    const edits = await db.pricePush.findMany({ where: { productKey: { in: productNames.map(productKey) }, createdAt: { gte: since } }, select: { productKey: true }, distinct: ['productKey'] });
    return new Set(edits.map((edit) => edit.productKey));
  },

  /** Decides every still-pending edit of a product up to a revision (a push of revision n carries every edit before it). */
  async decidePricePushes(db: ShopDb, productName: string, upToRevision: number, outcome: WoocommerceSyncOutcome, error: string | null = null): Promise<number> {
    const { count } = await db.pricePush.updateMany({
      where: { productKey: productKey(productName), revision: { lte: upToRevision }, outcome: 'pending' },
      data: { outcome, error, decidedAt: new Date() },
    });
    return count;
  },

  /** Notes why the latest attempt failed while the push is still being retried. */
  async notePricePushError(db: ShopDb, productName: string, upToRevision: number, error: string): Promise<void> {
    await db.pricePush.updateMany({ where: { productKey: productKey(productName), revision: { lte: upToRevision }, outcome: 'pending' }, data: { error } });
  },

  async recentPricePushes(db: ShopDb, limit: number): Promise<PricePush[]> {
    return (await db.pricePush.findMany({ orderBy: { createdAt: 'desc' }, take: limit })).map(pushView);
  },
};
