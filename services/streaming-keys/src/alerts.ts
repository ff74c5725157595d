import type { AlertRule } from '@bo/platform/alerts';
import { businessDate, serviceCodes, streamingServiceOf, type ServiceCode } from '@bo/proto';
import type { PrismaClient } from './generated/prisma/client';
import { freeKeyWhere, heldWhere } from './store/key-store';

/** A held key expiring within this long with no renewal invoice is an alert. */
const EXPIRING_WITHIN_MS = 3 * 86_400_000;
/** A renewal invoice made this recently counts as the key's renewal. */
const RENEWAL_LOOKBACK_MS = 30 * 86_400_000;
/** Keys named in an alert's details, at most. */
const NAMED_KEYS = 20;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * streaming-keys' alerts (docs/alerts.md): a streaming service with few free key slots, held keys
 * about to expire with no renewal invoice, and paid orders waiting for an admin (NEEDS_ATTENTION).
 */
export function streamingKeysAlertRules(deps: { prisma: PrismaClient; lowFreeSlots: number }): AlertRule[] {
  const { prisma } = deps;
  return [
    {
      name: 'low-free-slots',
      title: 'Few free key slots',
      severity: 'warning',
      // Each service that is sold (active pricing) or has keys: fewer free, unexpired slots than the threshold.
      async evaluate(now) {
        const [priced, stocked, free] = await Promise.all([
          prisma.streamingPricing.findMany({ where: { isActive: true }, select: { service: true }, distinct: ['service'] }),
          prisma.streamingKey.findMany({ select: { service: true }, distinct: ['service'] }),
          prisma.streamingKey.groupBy({ by: ['service'], where: { ...freeKeyWhere, expiresAt: { gt: now } }, _count: { _all: true } }),
        ]);
        const services = new Set([...priced, ...stocked].map((row) => row.service).filter((code): code is ServiceCode => (serviceCodes as readonly string[]).includes(code)));
        return [...services].sort().flatMap((service) => {
          const count = free.find((row) => row.service === service)?._count._all ?? 0;
          if (count >= deps.lowFreeSlots) return [];
          const { name } = streamingServiceOf(service);
          return [{ key: service, message: `${name} has ${plural(count, 'free key slot', 'free key slots')} (below ${deps.lowFreeSlots}): add keys before the next sale`, details: { service, free: count, threshold: deps.lowFreeSlots } }];
        });
      },
    },
    {
      name: 'keys-expiring-unrenewed',
      title: 'Keys expiring without a renewal',
      severity: 'warning',
      async evaluate(now) {
        const keys = await prisma.streamingKey.findMany({
          where: {
            ...heldWhere,
            isActive: 1,
            expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRING_WITHIN_MS) },
            renewals: { none: { invoiceId: { not: null }, createdAt: { gte: new Date(now.getTime() - RENEWAL_LOOKBACK_MS) } } },
          },
          select: { id: true, key: true, service: true, expiresAt: true },
          orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
        });
        if (keys.length === 0) return [];
        return [{
          key: '-',
          message: `${plural(keys.length, 'held key expires', 'held keys expire')} within 3 days with no renewal invoice (the first on ${businessDate(keys[0].expiresAt)})`,
          details: { count: keys.length, keys: keys.slice(0, NAMED_KEYS).map((key) => ({ id: key.id, key: key.key, service: key.service, expiresAt: key.expiresAt.toISOString() })) },
        }];
      },
    },
    {
      name: 'orders-need-attention',
      title: 'Paid orders need attention',
      severity: 'critical',
      async evaluate() {
        const waiting = await prisma.streamingInvoice.groupBy({ by: ['attentionKind'], where: { status: 'NEEDS_ATTENTION' }, _count: { _all: true } });
        const count = waiting.reduce((sum, row) => sum + row._count._all, 0);
        if (count === 0) return [];
        const byKind = Object.fromEntries(waiting.map((row) => [row.attentionKind ?? 'unknown', row._count._all]));
        return [{ key: '-', message: `${plural(count, 'paid order waits', 'paid orders wait')} for an admin (needs attention): assign a key or refund`, details: { count, byKind } }];
      },
    },
  ];
}
