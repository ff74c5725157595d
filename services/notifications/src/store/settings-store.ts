import { DEFAULT_EXPIRY_REMINDER_DAYS, templateKinds, templateSettingKey, type SettingKey, type TemplateKind } from '@bo/proto';
import type { NotificationsDb } from './db';

export interface ReminderSettings {
  expiryReminderDays: number;
  /** null until an admin sets it: reminders then fail with BASE_URL_WARNING. */
  baseUrl: string | null;
  /** The admin's ManyChat subscriber alerts are sent to; null: none are sent. */
  alertSubscriberId: string | null;
  /** Per kind, the utility template its messages go through outside the 24-hour window; null: none set (they are held). */
  templates: Record<TemplateKind, string | null>;
}

const descriptions: Record<SettingKey, string> = {
  expiry_reminder_days: 'Days before a key expires that its renewal reminder is sent (1–30)',
  base_url: 'Public address renewal links start with (<base_url>/api/streaming/renew/<session>)',
  alert_subscriber_id: "The admin's ManyChat subscriber every alert that fires or resolves is sent to (empty: none)",
  template_key_delivery: 'Utility template of key deliveries outside the 24-hour window',
  template_payment_confirmation: 'Utility template of payment confirmations outside the 24-hour window',
  template_renewal_reminder: 'Utility template of renewal reminders outside the 24-hour window',
  template_key_extension: 'Utility template of key extensions outside the 24-hour window',
  template_alert: "Utility template of alerts to the admin's subscriber outside the 24-hour window",
};

export const settingsStore = {
  async read(db: NotificationsDb): Promise<ReminderSettings> {
    const rows = await db.appSetting.findMany({ where: { key: { in: Object.keys(descriptions) } } });
    // An empty value is a setting cleared on the page.
    const value = (key: SettingKey) => rows.find((row) => row.key === key)?.value || null;
    const days = Number(value('expiry_reminder_days'));
    return {
      expiryReminderDays: Number.isInteger(days) && days >= 1 && days <= 30 ? days : DEFAULT_EXPIRY_REMINDER_DAYS,
      baseUrl: value('base_url'),
      alertSubscriberId: value('alert_subscriber_id'),
      templates: Object.fromEntries(templateKinds.map((kind) => [kind, value(templateSettingKey(kind))])) as Record<TemplateKind, string | null>,
    };
  },

  /**
   * Serialises a kind's template save with the holding of its messages (both take it in their
   * transaction): a message held on the old name while the new one is saved is either released by
   * the save or sees the new name.
   */
  async lockTemplate(db: NotificationsDb, kind: TemplateKind): Promise<void> {
    await db.$queryRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))::text', `notifications.template.${kind}`);
  },

  async write(db: NotificationsDb, key: SettingKey, value: string | number): Promise<void> {
    const text = String(value);
    await db.appSetting.upsert({ where: { key }, create: { key, value: text, description: descriptions[key] }, update: { value: text } });
  },
};
