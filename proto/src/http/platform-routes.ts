import { z } from 'zod';
import { serviceNames, type DomainServiceName, type ServiceName } from '../services';
import { alertRoutesOf } from '../alerts';
import { auditRoutesOf } from '../audit';
import { migrationRoutesOf } from '../migration';
import { runListRoutesOf, runRoutesOf } from '../runs';
import { defineRoute, successReply } from './contract';

/** One line of the config-status page (document 1): what is configured, and whether a simulator stands in. */
export const configItemSchema = z.object({
  name: z.string(),
  category: z.string(),
  configured: z.boolean(),
  simulated: z.boolean().default(false),
  /** Set when the owning service could not be asked. */
  error: z.string().optional(),
  /** The process that reported it: the gateway names each service's items when it gathers them. */
  service: z.enum(serviceNames as [ServiceName, ...ServiceName[]]).optional(),
  /**
   * For a service's data encryption key (DATA_ENCRYPTION_KEY): the id sealed values name it by (8
   * hex characters derived from it, revealing nothing of it) and how many older keys
   * (DATA_ENCRYPTION_OLD_KEYS) still open values. Never the key.
   */
  dataKey: z.object({ id: z.string().regex(/^[0-9a-f]{8}$/), oldKeys: z.number().int().min(0) }).optional(),
});
export type ConfigItem = z.infer<typeof configItemSchema>;

const deadLetterSchema = z.object({
  id: z.string(),
  name: z.string(),
  reason: z.string(),
  attempts: z.number().int(),
  deadLetteredAt: z.string(),
  content: z.string(),
});

const failedOutboxSchema = z.object({
  id: z.string(),
  name: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  occurredAt: z.string(),
  failedAt: z.string(),
});

/**
 * Routes every domain service answers through the platform: its config-status items (asked by the
 * gateway only), its dead letters and its failed outbox rows (operators list and replay them), its runs and schedules (runs.ts). Built per service from the
 * registry, so each path names its owner and the gateway routes it without a rule of its own.
 */
export function platformRoutesOf(owner: DomainServiceName) {
  const configStatus = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/config-status`,
    access: 'internal',
    callers: ['gateway'],
    reply: z.object({ items: z.array(configItemSchema) }),
    summary: `What the ${owner} service has configured`,
    category: 'System',
    example: {
      reply: {
        items: [
          { name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: true },
          { name: 'Data encryption key (account passwords)', category: 'Streaming keys', configured: true, simulated: false, dataKey: { id: '3f9c2a71', oldKeys: 1 } },
        ],
      },
    },
  });
  const listDeadLetters = defineRoute({
    owner,
    method: 'GET',
    path: `/api/admin/events/${owner}/dead-letters`,
    access: 'admin',
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
    reply: z.object({ data: z.array(deadLetterSchema) }),
    summary: `Events the ${owner} service could not handle, oldest first`,
    category: 'Events',
    example: { query: { limit: 100 }, reply: { data: [] } },
  });
  const replayDeadLetters = defineRoute({
    owner,
    method: 'POST',
    path: `/api/admin/events/${owner}/dead-letters/replay`,
    access: 'admin',
    body: z.object({ ids: z.array(z.string().min(1)).max(1000).optional() }).strict(),
    reply: successReply.extend({ replayed: z.number().int() }),
    summary: `Send the ${owner} service's dead letters (all, or the given ids) back to its queue`,
    category: 'Events',
    example: { body: { ids: ['0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10'] }, reply: { success: true, replayed: 1 } },
  });
  const listFailedEvents = defineRoute({
    owner,
    method: 'GET',
    path: `/api/admin/events/${owner}/failed-outbox`,
    access: 'admin',
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
    reply: z.object({ data: z.array(failedOutboxSchema) }),
    summary: `Events the ${owner} service could not publish in time, oldest first`,
    category: 'Events',
    example: { query: { limit: 100 }, reply: { data: [] } },
  });
  const retryFailedEvents = defineRoute({
    owner,
    method: 'POST',
    path: `/api/admin/events/${owner}/failed-outbox/retry`,
    access: 'admin',
    body: z.object({ ids: z.array(z.uuid()).max(1000).optional() }).strict(),
    reply: successReply.extend({ retried: z.number().int() }),
    summary: `Publish the ${owner} service's failed events again (all, or the given ids)`,
    category: 'Events',
    example: { body: {}, reply: { success: true, retried: 0 } },
  });
  return {
    configStatus, listDeadLetters, replayDeadLetters, listFailedEvents, retryFailedEvents,
    ...runListRoutesOf(owner), ...runRoutesOf(owner), ...alertRoutesOf(owner), ...auditRoutesOf(owner), ...migrationRoutesOf(owner),
  };
}
