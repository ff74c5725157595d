import { runKind } from '@bo/platform/runs';
import type { PrismaClient } from '../generated/prisma/client';
import { CONVERSATION_RETENTION_MS, conversationsStore } from '../store/conversations-store';
import { purchaseIntentsStore } from '../store/purchase-intents-store';

/**
 * The chat's clean-up (document 2 §9, issue 21): conversation messages older than 7 days go, and
 * purchases whose Buy link or invoice ran out unpaid become expired. Daily on a schedule, and on
 * the admin's POST /api/admin/cleanup-conversations.
 */
export async function cleanUpChat(prisma: PrismaClient, now = new Date()): Promise<{ deleted: number; expired: number }> {
  const deleted = await conversationsStore.deleteOlderThan(prisma, new Date(now.getTime() - CONVERSATION_RETENTION_MS));
  const expired = await purchaseIntentsStore.expire(prisma, now);
  return { deleted, expired };
}

export const chatCleanupKind = (prisma: PrismaClient) => runKind('chat-cleanup', () => cleanUpChat(prisma), { exclusive: true });
