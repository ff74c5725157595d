import type { SecretBox } from '@bo/platform';
import type { PaymentsConfig } from '../config';
import { newWebhookSecret, sameToken } from '../domain/invoices';
import type { PrismaClient } from '../generated/prisma/client';
import { settingsStore } from '../store/settings-store';

/** How the webhook secret is named when its data key is missing. */
export const WEBHOOK_SECRET_NAME = 'The chat webhook secret';

/**
 * The chat flow's X-Webhook-Secret (issue 18 §1). QPAY_WEBHOOK_SECRET only seeds it; it lives
 * sealed in qpay_settings, read on every request (a rotation on another replica counts at once),
 * and Rotate replaces it with a fresh random one.
 */
export class WebhookSecret {
  private readonly listeners = new Set<(secret: string) => Promise<void> | void>();
  /** The last sealed value opened, so a request costs one read and no decryption while it stays the same. */
  private opened: { sealed: string; secret: string } | null = null;

  constructor(private readonly deps: { prisma: PrismaClient; secrets: SecretBox; config: PaymentsConfig }) {}

  /** Stores the environment's secret where none is stored yet (after the settings row was seeded). */
  async seed(): Promise<void> {
    await settingsStore.seedWebhookSecret(this.deps.prisma, this.deps.secrets.seal(this.deps.config.QPAY_WEBHOOK_SECRET));
  }

  async current(): Promise<string> {
    const sealed = (await settingsStore.read(this.deps.prisma))?.webhookSecret ?? '';
    // Seeded at start; an empty column would mean someone cleared it by hand: nothing may match then.
    if (!sealed) return '';
    if (this.opened?.sealed !== sealed) this.opened = { sealed, secret: this.deps.secrets.open(sealed, WEBHOOK_SECRET_NAME) };
    return this.opened.secret;
  }

  async matches(given: string | undefined): Promise<boolean> {
    const secret = await this.current();
    return secret !== '' && sameToken(secret, given);
  }

  /** A fresh random secret replaces the stored one: the old one stops working at once. */
  async rotate(): Promise<string> {
    const secret = newWebhookSecret();
    await settingsStore.rotateWebhookSecret(this.deps.prisma, this.deps.secrets.seal(secret));
    // Awaited, so whoever follows the secret has the new one when Rotate answers; a listener's failure is its own.
    await Promise.allSettled([...this.listeners].map(async (listener) => listener(secret)));
    return secret;
  }

  /** Told each new secret this process makes (the embedded launcher keeps the ManyChat simulator's header in step). */
  onRotate(listener: (secret: string) => Promise<void> | void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
