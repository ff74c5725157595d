import type { Marketplace as MarketplaceView, ScrapeConfig } from '@bo/proto';
import { Prisma, type Marketplace, type PrismaClient } from '../generated/prisma/client';

/** Another marketplace has the name (marketplaces.name is unique). */
export class DuplicateMarketplaceName extends Error {}

export interface MarketplaceFields {
  name: string;
  url: string;
  countryCode: string;
  scrapeConfig: ScrapeConfig | null;
  paginationEnabled: boolean;
  paginationParam: string | null;
  enabled: boolean;
}

export const marketplaceView = (row: Marketplace): MarketplaceView => ({
  id: row.id,
  name: row.name,
  url: row.url,
  countryCode: row.countryCode,
  scrapeConfig: (row.scrapeConfig as ScrapeConfig | null) ?? null,
  paginationEnabled: row.paginationEnabled,
  paginationParam: row.paginationParam,
  enabled: row.enabled,
  createdAt: row.createdAt.toISOString(),
});

/** Document 2 §5: the pagination parameter is kept only while pagination is on ('page' when left blank). */
export const paginationParamFor = (enabled: boolean, param: string | null): string | null => (enabled ? param?.trim() || 'page' : null);

/** Prisma's Json column takes DbNull for SQL NULL. */
const configColumn = (config: ScrapeConfig | null | undefined) => (config === undefined ? undefined : config === null ? Prisma.DbNull : (config as Prisma.InputJsonObject));

function unique<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new DuplicateMarketplaceName();
    throw error;
  });
}

export const marketplaceStore = {
  async list(prisma: PrismaClient): Promise<MarketplaceView[]> {
    return (await prisma.marketplace.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }] })).map(marketplaceView);
  },

  async create(prisma: PrismaClient, fields: MarketplaceFields): Promise<MarketplaceView> {
    const paginationParam = paginationParamFor(fields.paginationEnabled, fields.paginationParam);
    return marketplaceView(await unique(prisma.marketplace.create({ data: { ...fields, paginationParam, scrapeConfig: configColumn(fields.scrapeConfig) } })));
  },

  /**
   * Null when there is no such marketplace. The row is read under a lock and the change applied to
   * it whole, so the pagination rule holds for what is saved, whichever fields a request sends.
   */
  async update(prisma: PrismaClient, id: number, change: Partial<MarketplaceFields>): Promise<MarketplaceView | null> {
    return unique(
      prisma.$transaction(async (tx) => {
        const [locked] = await tx.$queryRaw<{ pagination_enabled: boolean; pagination_param: string | null }[]>`
          SELECT pagination_enabled, pagination_param FROM "scraper".marketplaces WHERE id = ${id} FOR UPDATE`;
        if (!locked) return null;
        const paginationEnabled = change.paginationEnabled ?? locked.pagination_enabled;
        const paginationParam = paginationParamFor(paginationEnabled, change.paginationParam !== undefined ? change.paginationParam : locked.pagination_param);
        const row = await tx.marketplace.update({ where: { id }, data: { ...change, paginationEnabled, paginationParam, scrapeConfig: configColumn(change.scrapeConfig) } });
        return marketplaceView(row);
      }),
    );
  },

  async delete(prisma: PrismaClient, id: number): Promise<boolean> {
    return (await prisma.marketplace.deleteMany({ where: { id } })).count === 1;
  },
};
