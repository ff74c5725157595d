import type { Outbox } from '@bo/platform/events';
import type { PrismaTransaction } from '@bo/platform/service';
import { aiChatAutomationChanged } from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import { pausesStore } from '../store/pauses-store';
import { subscribersStore } from '../store/subscribers-store';

const HOUR_MS = 3_600_000;

/**
 * A person's takeover of a subscriber's chat (issue 21): the webhook answers nothing automatic
 * while it lasts, and notifications, told in the same transaction (ai-chat.automation.changed),
 * holds every message for them meanwhile.
 */
export class AutomationPauses {
  constructor(private readonly deps: { outbox: Outbox<PrismaTransaction<PrismaClient>> }) {}

  /** For `hours`, or until resumed (null). */
  pause(userId: string, change: { hours: number | null; by: string; reason: string | null }) {
    const now = Date.now();
    const pausedUntil = change.hours === null ? null : new Date(now + change.hours * HOUR_MS);
    return this.deps.outbox.commit(async (tx, emit) => {
      await pausesStore.pause(tx, userId, { pausedUntil, pausedBy: change.by, reason: change.reason });
      emit(aiChatAutomationChanged, { subscriberId: userId, revision: now, paused: true, pausedUntil: pausedUntil?.toISOString() ?? null });
      return { until: pausedUntil, by: change.by };
    });
  }

  resume(userId: string): Promise<void> {
    return this.deps.outbox.commit(async (tx, emit) => {
      await pausesStore.resume(tx, userId);
      // What notifications held meanwhile goes out at the subscriber's next message, however soon.
      await subscribersStore.announceNext(tx, userId);
      emit(aiChatAutomationChanged, { subscriberId: userId, revision: Date.now(), paused: false, pausedUntil: null });
    });
  }
}
