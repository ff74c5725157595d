import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import type { OutboundGuard } from '@bo/platform/outside';
import { createMarketplace, deleteMarketplace, listMarketplaces, updateMarketplace } from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import { DuplicateMarketplaceName, marketplaceStore } from '../store/marketplace-store';

const duplicateName = (name: string) => conflict(`A marketplace named "${name}" already exists`);

/**
 * The Marketplaces table and its dialogs. A URL is refused (400, with the reason) when it is not
 * http(s) or names, or resolves to, a loopback, private, link-local or metadata address: the
 * scraper would fetch it from inside our network.
 */
export function registerMarketplaceRoutes(app: FastifyInstance, { prisma, guard }: { prisma: PrismaClient; guard: OutboundGuard }): void {
  serveRoute(app, listMarketplaces, async () => ({ success: true, data: await marketplaceStore.list(prisma) }));

  serveRoute(app, createMarketplace, async ({ body }) => {
    await guard.check(body.url);
    try {
      return { success: true, data: await marketplaceStore.create(prisma, body) };
    } catch (error) {
      throw error instanceof DuplicateMarketplaceName ? duplicateName(body.name) : error;
    }
  });

  serveRoute(app, updateMarketplace, async ({ params, body }) => {
    if (body.url !== undefined) await guard.check(body.url);
    let updated;
    try {
      updated = await marketplaceStore.update(prisma, params.id, body);
    } catch (error) {
      throw error instanceof DuplicateMarketplaceName ? duplicateName(body.name ?? '') : error;
    }
    if (!updated) throw notFound('Marketplace not found');
    return { success: true, data: updated };
  });

  serveRoute(app, deleteMarketplace, async ({ params }) => {
    if (!(await marketplaceStore.delete(prisma, params.id))) throw notFound('Marketplace not found');
    return { success: true };
  });
}
