/**
 * The expiry check (ADR 14): asks streaming-keys for the keys expiring within
 * expiry_reminder_days, takes each (key, expiry date) reminder once (the unique reminders row),
 * sends it with a renewal link, and records every outcome with its
 * notifications.reminder.recorded event in one transaction (ChatDeliveries.settle). The send
 * itself runs outside any transaction. A failed reminder is tried again by later checks, up to
 * REMINDER_MAX_ATTEMPTS sends (a reminder that could not be sent for want of base_url or a token
 * uses none up). Outside the 24-hour window it goes through the renewal-reminder template; with
 * none set it is held, and goes out when its subscriber next writes (not by a later check).
 */
import { runKind, type ProgressUpdate } from '@bo/platform/runs';
import type { ServiceClient } from '@bo/platform';
import { BASE_URL_WARNING, expiringKeys, streamingServiceOf, type ExpiringKey, type ExpiryCheckCounts } from '@bo/proto';
import { recordedText } from '../domain/templates';
import type { PrismaClient } from '../generated/prisma/client';
import { deliveriesStore } from '../store/deliveries-store';
import { remindersStore } from '../store/reminders-store';
import { settingsStore } from '../store/settings-store';
import type { ChatDeliveries, Outcome } from './deliveries';
import { NOT_CONFIGURED, type ChatMessenger } from './messenger';

/** Sends of one reminder across checks (hourly: a ManyChat outage of a few hours is ridden out). */
export const REMINDER_MAX_ATTEMPTS = 5;
/** A reminder claimed longer ago than this belongs to a check that died mid-send: a later check may take it. */
export const REMINDER_STALE_MS = 10 * 60_000;
/** Reminders sent at once (ManyChat allows 25 sendContent calls a second per account). */
const CONCURRENCY = 4;

export interface ExpiryCheckDeps {
  prisma: PrismaClient;
  messenger: ChatMessenger;
  deliveries: ChatDeliveries;
  streamingKeys: ServiceClient;
}

/**
 * What a check works with, read when it is asked for (a press, a tick, a retry) and kept as its run's
 * input: a check pressed right after a settings change uses the new ones, and shows which it used.
 */
export interface ExpiryCheckInput {
  /** expiry_reminder_days: keys expiring within this many days are reminded. */
  days: number;
  /** base_url the renewal links start with; null: not set (each reminder fails with BASE_URL_WARNING). */
  baseUrl: string | null;
}

type Tally = keyof Omit<ExpiryCheckCounts, 'checked'>;
const tallies = { sent: 'sent', failed: 'failed', opted_out: 'optedOut', held: 'held' } as const satisfies Record<Outcome['status'], Tally>;

export class ExpiryCheck {
  constructor(private readonly deps: ExpiryCheckDeps) {}

  /**
   * An `expiry-check` run (one at a time), hourly on EXPIRY_CHECK_CRON or started from the page, with
   * the settings as they were when it was asked for (its input). A run recorded before its input held
   * them (`{}`) reads them when it starts.
   */
  readonly kind = runKind<Partial<ExpiryCheckInput>, ExpiryCheckCounts>(
    'expiry-check',
    (run) => this.run((update) => run.progress(update), run.signal, typeof run.input.days === 'number' ? { days: run.input.days, baseUrl: run.input.baseUrl ?? null } : undefined),
    { exclusive: true, inputNow: () => this.settingsNow() },
  );

  /** The settings a check asked for now works with. */
  async settingsNow(): Promise<ExpiryCheckInput> {
    const settings = await settingsStore.read(this.deps.prisma);
    return { days: settings.expiryReminderDays, baseUrl: settings.baseUrl };
  }

  /**
   * Reminds every key expiring within the days of `settings` (by default as they are now); `progress`
   * hears each key's outcome. No key is started once `signal` aborts (a cancel) or one has failed:
   * the check ends with its workers.
   */
  async run(progress: (update: ProgressUpdate) => void = () => undefined, signal?: AbortSignal, given?: ExpiryCheckInput): Promise<ExpiryCheckCounts> {
    const settings = given ?? (await this.settingsNow());
    const { data: keys } = await this.deps.streamingKeys.call(expiringKeys, { query: { days: settings.days } });
    const counts: ExpiryCheckCounts = { checked: keys.length, sent: 0, failed: 0, optedOut: 0, held: 0, skipped: 0 };
    let done = 0;
    progress({ current: 0, total: keys.length, counters: counts });
    const queue = [...keys];
    let failed = false;
    const worker = async () => {
      for (let key = queue.shift(); key && !failed && !signal?.aborted; key = queue.shift()) {
        try {
          counts[await this.remind(key, settings)]++;
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

  private async remind(key: ExpiringKey, settings: ExpiryCheckInput): Promise<Tally> {
    const { prisma, messenger, deliveries } = this.deps;
    const expiresAt = new Date(key.expiresAt);
    const claimed = await remindersStore.claim(prisma, { keyId: key.keyId, expiresAt, subscriberId: key.customerId, maxAttempts: REMINDER_MAX_ATTEMPTS, staleMs: REMINDER_STALE_MS });
    if (!claimed) return 'skipped';
    const delivery = await deliveriesStore.forReminder(prisma, claimed.id, { subscriberId: key.customerId, keyId: key.keyId, expiresAt });
    const decide = async (outcome: Outcome): Promise<Tally> => {
      await deliveries.settleNow(delivery, outcome);
      return tallies[outcome.status];
    };
    if (key.isOptedOut) return decide({ status: 'opted_out', attempts: 0, reason: null, tried: false });
    // Without base_url or a token nothing is sent: recorded failed, but no try is used up.
    const { baseUrl } = settings;
    if (!baseUrl) return decide({ status: 'failed', attempts: 0, reason: BASE_URL_WARNING, tried: false });
    if (!messenger.configured) return decide({ status: 'failed', attempts: 0, reason: NOT_CONFIGURED, tried: false });
    try {
      const message = await deliveries.reminderMessage({ keyId: key.keyId, serviceName: streamingServiceOf(key.service).name, key: key.key, expiresAt: key.expiresAt }, baseUrl);
      const sent = await messenger.send(key.customerId, message);
      if (sent.status === 'sent') return decide({ status: 'sent', attempts: 0, templateName: sent.templateName, text: recordedText(message, sent.templateName) });
      if (sent.status === 'held') return decide({ ...sent, attempts: 0 });
      return decide({ status: 'failed', attempts: 0, reason: sent.reason, tried: true });
    } catch (error) {
      return decide({ status: 'failed', attempts: 0, reason: (error as Error).message, tried: true });
    }
  }
}
