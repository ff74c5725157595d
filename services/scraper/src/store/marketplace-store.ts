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

  async get(prisma: PrismaClient, id: number): Promise<Marketplace | null> {
    return prisma.marketplace.findUnique({ where: { id } });
  },

  async create(prisma: PrismaClient, fields: MarketplaceFields): Promise<MarketplaceView> {
    return marketplaceView(await unique(prisma.marketplace.create({ data: { ...fields, scrapeConfig: configColumn(fields.scrapeConfig) } })));
  },

  /** Null when there is no such marketplace. */
  async update(prisma: PrismaClient, id: number, fields: Partial<MarketplaceFields>): Promise<MarketplaceView | null> {
    const [row] = await unique(prisma.marketplace.updateManyAndReturn({ where: { id }, data: { ...fields, scrapeConfig: configColumn(fields.scrapeConfig) } }));
    return row ? marketplaceView(row) : null;
  },

  async delete(prisma: PrismaClient, id: number): Promise<boolean> {
    return (await prisma.marketplace.deleteMany({ where: { id } })).count === 1;
  },
};
