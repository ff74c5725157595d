import type { AlertRule } from '@bo/platform/alerts';
import { LAYOUT_CHANGED_ERROR } from '@bo/proto';
import type { PrismaClient } from './generated/prisma/client';

/**
 * The scraper's alert (docs/alerts.md): a marketplace whose latest job failed because its
 * selectors matched nothing. It resolves when a later job of that marketplace completes, or when
 * the marketplace is edited (its config mended) or removed.
 */
export function scraperAlertRules(prisma: PrismaClient): AlertRule[] {
  return [
    {
      name: 'scrape-layout-changed',
      title: 'Marketplace layout changed',
      severity: 'warning',
      async evaluate() {
        const marketplaces = await prisma.marketplace.findMany({
          where: { enabled: true },
          select: { id: true, name: true, updatedAt: true, jobs: { where: { status: { in: ['completed', 'failed'] } }, orderBy: { createdAt: 'desc' }, take: 1 } },
          orderBy: { id: 'asc' },
        });
        return marketplaces.flatMap(({ id, name, updatedAt, jobs: [latest] }) =>
          latest?.status === 'failed' && latest.error === LAYOUT_CHANGED_ERROR && (latest.completedAt === null || updatedAt <= latest.completedAt)
            ? [{ key: String(id), message: `${name}: ${LAYOUT_CHANGED_ERROR} (job ${latest.id} failed ${latest.completedAt?.toISOString() ?? ''})`, details: { marketplaceId: id, marketplace: name, jobId: latest.id } }]
            : [],
        );
      },
    },
  ];
}
