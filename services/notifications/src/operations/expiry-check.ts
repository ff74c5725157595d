/**
 * The expiry check (ADR 14): asks streaming-keys for the keys expiring within
 * expiry_reminder_days, takes each (key, expiry date) reminder once (the unique reminders row),
 * sends it with a renewal link, and records every outcome with its
 * notifications.reminder.recorded event in one transaction. The send itself runs outside any
 * transaction. A failed reminder is tried again by later checks, up to REMINDER_MAX_ATTEMPTS sends
 * (a reminder that could not be sent for want of base_url or a token uses none up).
 */
import type { Outbox } from '@bo/platform/events';
import { runKind, type ProgressUpdate } from '@bo/platform/runs';
import type { ServiceClient } from '@bo/platform';
import {
  BASE_URL_WARNING,
  createRenewalSession,
  expiringKeys,
  notificationsReminderRecorded,
  streamingServiceOf,
  type ExpiringKey,
  type ExpiryCheckCounts,
} from '@bo/proto';
import { renewalReminderText } from '../domain/templates';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { deliveriesStore } from '../store/deliveries-store';
import { purchasesStore } from '../store/purchases-store';
import { remindersStore, type ClaimedReminder, type ReminderOutcome } from '../store/reminders-store';
import { settingsStore } from '../store/settings-store';
import { ACCOUNT_UPDATE, NOT_CONFIGURED, type ChatMessenger } from './messenger';

/** Sends of one reminder across checks (hourly: a ManyChat outage of a few hours is ridden out). */
export const REMINDER_MAX_ATTEMPTS = 5;
/** A reminder claimed longer ago than this belongs to a check that died mid-send: a later check may take it. */
export const REMINDER_STALE_MS = 10 * 60_000;
/** Reminders sent at once (ManyChat allows 25 sendContent calls a second per account). */
const CONCURRENCY = 4;
/** Months the renewal link offers (the customer may pick another on the payment page's order). */
const RENEWAL_MONTHS = 1;

export interface ExpiryCheckDeps {
  prisma: PrismaClient;
  outbox: Outbox<Prisma.TransactionClient>;
  messenger: ChatMessenger;
  streamingKeys: ServiceClient;
  now?: () => Date;
}

type Tally = keyof Omit<ExpiryCheckCounts, 'checked'>;
/** What became of one reminder; `tried`: it was really tried (a renewal session asked for, a send made), which uses up one of its tries. */
interface Outcome {
  tried: boolean;
  error?: string;
  text?: string;
  messageTag?: string | null;
}

export class ExpiryCheck {
  constructor(private readonly deps: ExpiryCheckDeps) {}

  /** An `expiry-check` run (one at a time), hourly on EXPIRY_CHECK_CRON or started from the page. */
  readonly kind = runKind('expiry-check', (run) => this.run((update) => run.progress(update), run.signal), { exclusive: true });

  /**
   * Reminds every key expiring within the set days; `progress` hears each key's outcome. No key is
   * started once `signal` aborts (a cancel) or one has failed: the check ends with its workers.
   */
  async run(progress: (update: ProgressUpdate) => void = () => undefined, signal?: AbortSignal): Promise<ExpiryCheckCounts> {
    const settings = await settingsStore.read(this.deps.prisma);
    const { data: keys } = await this.deps.streamingKeys.call(expiringKeys, { query: { days: settings.expiryReminderDays } });
    const counts: ExpiryCheckCounts = { checked: keys.length, sent: 0, failed: 0, optedOut: 0, skipped: 0 };
    let done = 0;
    progress({ current: 0, total: keys.length, counters: counts });
    const queue = [...keys];
    let failed = false;
    const worker = async () => {
      for (let key = queue.shift(); key && !failed && !signal?.aborted; key = queue.shift()) {
        try {
          counts[await this.remind(key, settings.baseUrl)]++;
        } catch (error) {
          failed = true;
          throw error;
        }
        progress({ current: ++done, counters: counts });
      }
    };
    // Every worker ends its key before the check ends, failed or not: none outlives the run.
    const ended = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENCY, keys.length) }, worker));
    const failure = ended.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return counts;
  }

  private async remind(key: ExpiringKey, baseUrl: string | null): Promise<Tally> {
    const { prisma, messenger, streamingKeys } = this.deps;
    const expiresAt = new Date(key.expiresAt);
    const claimed = await remindersStore.claim(prisma, { keyId: key.keyId, expiresAt, subscriberId: key.customerId, maxAttempts: REMINDER_MAX_ATTEMPTS, staleMs: REMINDER_STALE_MS });
    if (!claimed) return 'skipped';
    const delivery = await deliveriesStore.forReminder(prisma, claimed.id, { subscriberId: key.customerId, keyId: key.keyId });
    const decide = (status: ReminderOutcome, details: Outcome) => this.decide(claimed, key, expiresAt, delivery.id, status, details);
    if (key.isOptedOut) {
      await decide('opted_out', { tried: false });
      return 'optedOut';
    }
    // Without base_url or a token nothing is sent: recorded failed, but no try is used up.
    const unsendable = !baseUrl ? BASE_URL_WARNING : !messenger.configured ? NOT_CONFIGURED : null;
    if (unsendable) {
      await decide('failed', { error: unsendable, tried: false });
      return 'failed';
    }
    try {
      const session = await streamingKeys.call(createRenewalSession, { body: { keyId: key.keyId, months: RENEWAL_MONTHS } });
      const now = this.deps.now?.() ?? new Date();
      const text = renewalReminderText({ serviceName: streamingServiceOf(key.service).name, key: key.key, expiresAt: key.expiresAt, renewalUrl: `${baseUrl}${session.path}` }, now);
      const { messageTag } = await messenger.send(key.customerId, text, ACCOUNT_UPDATE);
      await decide('sent', { text, messageTag, tried: true });
      return 'sent';
    } catch (error) {
      await decide('failed', { error: (error as Error).message, tried: true });
      return 'failed';
    }
  }

  /** The reminder's outcome, its deliveries row and its event, in one transaction. */
  private async decide(claimed: ClaimedReminder, key: ExpiringKey, expiresAt: Date, deliveryId: number, status: ReminderOutcome, details: Outcome): Promise<void> {
    const error = details.error ?? null;
    await this.deps.outbox.commit(async (tx, emit) => {
      const counters = await remindersStore.decide(tx, claimed.id, key.keyId, { status, error, tried: details.tried });
      if (status === 'sent') {
        await deliveriesStore.sent(tx, deliveryId, { attempts: counters.reminderAttempts, messageTag: details.messageTag ?? null, text: details.text ?? '' });
        await purchasesStore.markReminded(tx, key.keyId, expiresAt);
      } else {
        await deliveriesStore.notSent(tx, deliveryId, { attempts: counters.reminderAttempts, error, status });
      }
      emit(notificationsReminderRecorded, {
        keyId: key.keyId, revision: counters.revision, expiresAt: expiresAt.toISOString(), status, attempts: counters.keyAttempts, at: new Date().toISOString(), error,
      });
    });
  }
}
