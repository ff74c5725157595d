import { z } from 'zod';
import { defineEvent } from '../envelope';
import { notificationStatuses } from '../money';

/**
 * The outcome of one renewal reminder for one key and expiry date. `revision` grows with every
 * outcome notifications records for that key, so streaming-keys keeps the newest.
 */
export const notificationsReminderRecorded = defineEvent({
  name: 'notifications.reminder.recorded',
  version: 1,
  payload: z.object({
    keyId: z.number().int(),
    revision: z.number().int().positive(),
    expiresAt: z.string(),
    status: z.enum(notificationStatuses),
    /** Send attempts for this key's reminders so far. */
    attempts: z.number().int().nonnegative(),
    at: z.string(),
    /** Why it failed or is held; null when sent or opted out. */
    error: z.string().nullable(),
  }),
  entity: { name: 'reminder', key: 'keyId', revision: 'revision' },
  example: { keyId: 41, revision: 1, expiresAt: '2026-11-26T08:00:00.000Z', status: 'sent', attempts: 1, at: '2026-11-23T09:00:00.000Z', error: null },
});
