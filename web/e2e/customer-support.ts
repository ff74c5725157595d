import { startOfBusinessDay } from '@bo/proto/business-time';
import type { MailKind } from '@bo/sim-mailbox/emails';
import type { DeliveredMail } from '@bo/sim-mailbox/state';
import type { Page } from 'playwright-core';
import { adminApi } from './qpay-support';

/** A key as POST /api/streaming-keys answers it (the fields these journeys read). */
export interface CreatedKey {
  id: number;
  key: string;
  email: string;
  profileNumber: number;
  expiresAt: string;
}

/**
 * Set-up through the admin API with a signed-in admin page: one key of an account e-mail, and the
 * account's mailbox password.
 */
export function customerSetup(page: Page, appUrl: string) {
  const api = adminApi(page, appUrl);
  return {
    async createKey(service: string, email: string, expiry: { months: number } | { expiresAt: string }): Promise<CreatedKey> {
      const reply = await api.post<{ data: { keys: CreatedKey[] } }>('/api/streaming-keys', { service, email, profiles: 1, ...expiry });
      return reply.data.keys[0];
    },
    async setMailboxPassword(service: string, email: string, mailboxPassword: string): Promise<void> {
      await api.put('/api/streaming-accounts/mailbox', { service, email, mailboxPassword });
    },
  };
}

/** A mail of this kind arrives in the simulated mailbox now (a fixed code when given): what it holds. */
export async function deliverMail(mailboxUrl: string, account: string, kind: MailKind, code?: string): Promise<DeliveredMail> {
  const response = await fetch(`${mailboxUrl}/__sim/deliver`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ account, kind, code }) });
  if (!response.ok) throw new Error(`the mailbox simulator refused the delivery: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { message: DeliveredMail }).message;
}

/**
 * The start of today in Ulaanbaatar (the business's day): the earliest expiry a new key may have,
 * already past, so the key is expired at once. (The start of the UTC day is refused from 16:00 UTC
 * on, when it is already tomorrow in Ulaanbaatar.)
 */
export const startOfTodayInUlaanbaatar = () => startOfBusinessDay(new Date()).toISOString();
