import { createHash } from 'node:crypto';
import { ServiceClient, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import { checkChatWebhookSecret } from '@bo/proto';

/** How long a secret payments confirmed is taken without asking again. */
export const CONFIRMED_SECRET_MS = 1_000;

/**
 * The chat flow's X-Webhook-Secret, which payments keeps (sealed, rotatable from /qpay): ai-chat
 * asks payments rather than holding a copy. A confirmed secret is remembered (as its hash) for a
 * second, so a busy chat does not ask on every message; a rotation counts here within that second,
 * and a wrong secret is never remembered (each is asked).
 */
export class ChatSecret {
  private readonly payments: ServiceClient;
  private confirmed: { hash: string; until: number } | null = null;

  constructor(options: { paymentsUrl: string; signer: IdentitySigner }) {
    this.payments = new ServiceClient({ baseUrl: options.paymentsUrl, signer: options.signer, timeoutMs: 2_000 });
  }

  async matches(given: string | undefined): Promise<boolean> {
    if (!given) return false;
    const hash = createHash('sha256').update(given).digest('hex');
    if (this.confirmed?.hash === hash && this.confirmed.until > Date.now()) return true;
    let matches: boolean;
    try {
      matches = (await this.payments.call(checkChatWebhookSecret, { body: { secret: given.slice(0, 200) } })).matches;
    } catch {
      throw serviceUnavailable('The chat webhook secret cannot be checked right now: try again shortly');
    }
    if (matches) this.confirmed = { hash, until: Date.now() + CONFIRMED_SECRET_MS };
    return matches;
  }
}
