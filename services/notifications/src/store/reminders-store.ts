import type { NotificationsDb } from './db';
import { TABLES } from './db';

export type ReminderOutcome = 'sent' | 'failed' | 'opted_out' | 'held';

export interface ClaimedReminder {
  id: number;
}

export const remindersStore = {
  /**
   * Takes the reminder of one key and expiry date for this check, in one statement: a new pair is
   * inserted; an existing one is taken again only when it failed (after fewer than `maxAttempts`
   * sends) or its check died mid-send (claimed longer than `staleMs` ago). A sent, opted-out or held
   * reminder (its subscriber's next message sends it), or one another check is sending right now, gives null: at most one reminder per
   * expiry date, also when two checks run at once (the second waits on the row lock, then sees it taken).
   */
  async claim(db: NotificationsDb, input: { keyId: number; expiresAt: Date; subscriberId: string; maxAttempts: number; staleMs: number }): Promise<ClaimedReminder | null> {
    const rows = await db.$queryRawUnsafe<ClaimedReminder[]>(
      `INSERT INTO ${TABLES.reminders} AS r (key_id, expires_at, subscriber_id, status, attempts, claimed_at)
       VALUES ($1, $2, $3, 'sending', 0, now())
       ON CONFLICT (key_id, expires_at) DO UPDATE SET status = 'sending', claimed_at = now(), subscriber_id = EXCLUDED.subscriber_id
         WHERE (r.status = 'failed' AND r.attempts < $4) OR (r.status = 'sending' AND r.claimed_at < now() - $5::integer * interval '1 millisecond')
       RETURNING id`,
      input.keyId,
      input.expiresAt,
      input.subscriberId,
      input.maxAttempts,
      input.staleMs,
    );
    return rows[0] ?? null;
  },

  /**
   * Records a reminder's outcome and moves its key's counters: the revision always (the event's
   * revision), the attempts only when a send to ManyChat was tried (not for an opted-out key, nor
   * for a reminder that could not be sent for want of base_url or a token, nor one held: those are
   * not used up). Returns the key's revision and attempts, the reminder's own attempts and the
   * expiry it is about.
   */
  async decide(db: NotificationsDb, reminderId: number, keyId: number, outcome: { status: ReminderOutcome; error: string | null; tried: boolean }) {
    const tried = outcome.tried ? 1 : 0;
    const [counter] = await db.$queryRawUnsafe<{ revision: number; attempts: number }[]>(
      `INSERT INTO ${TABLES.counters} AS c (key_id, revision, attempts) VALUES ($1, 1, $2)
       ON CONFLICT (key_id) DO UPDATE SET revision = c.revision + 1, attempts = c.attempts + EXCLUDED.attempts
       RETURNING revision, attempts`,
      keyId,
      tried,
    );
    const reminder = await db.reminder.update({
      where: { id: reminderId },
      data: { status: outcome.status, lastError: outcome.error, revision: counter.revision, decidedAt: new Date(), attempts: { increment: tried } },
      select: { attempts: true, expiresAt: true },
    });
    return { revision: counter.revision, keyAttempts: counter.attempts, reminderAttempts: reminder.attempts, expiresAt: reminder.expiresAt };
  },
};
