import { DEFAULT_EXPIRY_REMINDER_DAYS, type SettingKey } from '@bo/proto';
import type { NotificationsDb } from './db';

export interface ReminderSettings {
  expiryReminderDays: number;
  /** null until an admin sets it: reminders then fail with BASE_URL_WARNING. */
  baseUrl: string | null;
}

const descriptions: Record<SettingKey, string> = {
  expiry_reminder_days: 'Days before a key expires that its renewal reminder is sent (1–30)',
  base_url: 'Public address renewal links start with (<base_url>/api/streaming/renew/<session>)',
};

export const settingsStore = {
  async read(db: NotificationsDb): Promise<ReminderSettings> {
    const rows = await db.appSetting.findMany({ where: { key: { in: Object.keys(descriptions) } } });
    const value = (key: SettingKey) => rows.find((row) => row.key === key)?.value ?? null;
    const days = Number(value('expiry_reminder_days'));
    return {
      expiryReminderDays: Number.isInteger(days) && days >= 1 && days <= 30 ? days : DEFAULT_EXPIRY_REMINDER_DAYS,
      baseUrl: value('base_url') || null,
    };
  },

  async write(db: NotificationsDb, key: SettingKey, value: string | number): Promise<void> {
    const text = String(value);
    await db.appSetting.upsert({ where: { key }, create: { key, value: text, description: descriptions[key] }, update: { value: text } });
  },
};
