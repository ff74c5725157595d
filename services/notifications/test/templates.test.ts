import { describe, expect, it } from 'vitest';
import {
  chatAnswerMessage, daysLeft, formatTime, formatTugrik, keyDeliveryMessage, keyDeliveryText, paymentConfirmationText, recordedText, renewalReminderMessage, renewalReminderText, templatePreviews, templateVariables,
} from '../src/domain/templates';

describe('message templates', () => {
  it('writes amounts in tugrik with thousands separators and times in Ulaanbaatar time', () => {
    expect(formatTugrik(35000)).toBe('35,000₮');
    expect(formatTugrik(1234567)).toBe('1,234,567₮');
    expect(formatTugrik(0)).toBe('0₮');
    expect(formatTime('2026-11-23T08:00:00.000Z')).toBe('2026-11-23 16:00'); // UTC+8
    expect(formatTime('2026-12-31T20:30:00.000Z')).toBe('2027-01-01 04:30');
  });

  it('counts whole days left, at least one while the key has not expired', () => {
    const now = new Date('2026-11-20T08:00:00.000Z');
    expect(daysLeft('2026-11-23T08:00:00.000Z', now)).toBe(3);
    expect(daysLeft('2026-11-22T09:00:00.000Z', now)).toBe(3);
    expect(daysLeft('2026-11-20T13:00:00.000Z', now)).toBe(1);
  });

  it('renders the key delivery with every detail, and a missing password as "contact us"', () => {
    const data = { serviceName: 'Disney+', key: 'SK-ABCDEFGHJK-DPS', accountEmail: 'dps.1@example.mn', accountPassword: 'Pass-1', profileNumber: 4, expiresAt: '2026-12-01T00:00:00.000Z' };
    const text = keyDeliveryText(data);
    for (const part of ['Disney+', 'SK-ABCDEFGHJK-DPS', 'dps.1@example.mn', 'Pass-1', 'Профайл / Profile: 4', '2026-12-01 08:00']) expect(text).toContain(part);
    expect(keyDeliveryText({ ...data, accountPassword: null })).toContain('Нууц үг / Password: бидэнтэй холбогдоно уу / please contact us');
  });

  it('renders the reminder with the days left and the renewal link, without an offer', () => {
    const text = renewalReminderText({ serviceName: 'Netflix', key: 'SK-7Q2M4P9X3K-NFX', expiresAt: '2026-11-23T08:00:00.000Z', renewalUrl: 'https://shop.mn/api/streaming/renew/rs_1' }, new Date('2026-11-20T08:00:00.000Z'));
    expect(text).toContain('3 хоногийн дараа дуусна / Your Netflix access ends in 3 days');
    expect(text.split('\n').at(-1)).toBe('https://shop.mn/api/streaming/renew/rs_1');
    expect(text).not.toMatch(/discount|sale|хямдрал|%/i);
  });

  it('renders the payment confirmation with amount, description and paid time', () => {
    expect(paymentConfirmationText({ amount: 105000, description: 'Netflix 3 сар', paidAt: '2026-11-23T08:05:00.000Z' })).toBe(
      '✅ Төлбөр амжилттай төлөгдлөө / Payment received\n\n💰 Дүн / Amount: 105,000₮\n📝 Netflix 3 сар\n🕒 Төлсөн / Paid: 2026-11-23 16:05',
    );
  });

  it('fills each utility template with exactly its named variables, from the same data as the text; a chat answer has none', () => {
    const key = { serviceName: 'Disney+', key: 'SK-ABCDEFGHJK-DPS', accountEmail: 'dps.1@example.mn', accountPassword: null, profileNumber: 4, expiresAt: '2026-12-01T00:00:00.000Z' };
    const delivery = keyDeliveryMessage(key);
    expect(delivery.template).toEqual({
      kind: 'key_delivery',
      variables: { service_name: 'Disney+', key: 'SK-ABCDEFGHJK-DPS', account_email: 'dps.1@example.mn', account_password: 'бидэнтэй холбогдоно уу / please contact us', profile_number: '4', expires_at: '2026-12-01 08:00' },
    });
    expect(Object.keys(delivery.template!.variables)).toEqual([...templateVariables.key_delivery]);
    const reminder = renewalReminderMessage({ serviceName: 'Netflix', key: 'SK-7Q2M4P9X3K-NFX', expiresAt: '2026-11-23T08:00:00.000Z', renewalUrl: 'https://shop.mn/r/1' }, new Date('2026-11-20T08:00:00.000Z'));
    expect(reminder.template?.variables).toMatchObject({ days_left: '3', renewal_url: 'https://shop.mn/r/1' });
    expect(recordedText(reminder, null)).toBe(reminder.text);
    expect(recordedText(reminder, 'renewal_notice').split('\n')).toEqual(['renewal_notice:', 'service_name = Netflix', 'key = SK-7Q2M4P9X3K-NFX', 'expires_at = 2026-11-23 16:00', 'days_left = 3', 'renewal_url = https://shop.mn/r/1']);
    expect(chatAnswerMessage('Hi')).toEqual({ text: 'Hi', template: null });
  });

  it('previews the three templates on sample data, the reminder with the configured days', () => {
    const previews = templatePreviews(5);
    expect(previews.map((preview) => preview.kind)).toEqual(['key_delivery', 'renewal_reminder', 'payment_confirmation']);
    expect(previews[1].sample).toContain('ends in 5 days');
    expect(previews[1].description).toContain('5 days before expiry');
    expect(previews[2].sample).toContain('35,000₮');
    expect(previews[1].variables).toEqual([...templateVariables.renewal_reminder]);
    expect(previews.every((preview) => !/ACCOUNT_UPDATE|POST_PURCHASE_UPDATE/.test(preview.description))).toBe(true);
  });
});
