import { createHash } from 'node:crypto';
import { ServiceClient, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import { checkChatWebhookSecret } from '@bo/proto';

/** How long a secret payments confirmed is taken without asking again. */
export const CONFIRMED_SECRET_MS = 1_000;
/**
 * Past that, how long it is still taken while payments is asked again in the background (the
 * answer decides the next messages): a busy chat never waits on payments, and a payments outage
 * refuses the chat only after this long.
 */
export const RECHECKED_SECRET_MS = 10_000;

/**
 * The chat flow's X-Webhook-Secret, which payments keeps (sealed, rotatable from /qpay): ai-chat
 * asks payments rather than holding a copy. A confirmed secret is remembered (as its hash): for a
 * second without asking, then asked again while it is still taken, so a rotation counts here about
 * a second after it (plus payments' answer). A wrong secret is never remembered; the messages that
 * come while one secret is being asked share that one question.
 */
export class ChatSecret {
  private readonly payments: ServiceClient;
  private confirmed: { hash: string; at: number } | null = null;
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(options: { paymentsUrl: string; signer: IdentitySigner }) {
    this.payments = new ServiceClient({ baseUrl: options.paymentsUrl, signer: options.signer, timeoutMs: 2_000 });
  }

  async matches(given: string | undefined): Promise<boolean> {
    if (!given) return false;
    const hash = createHash('sha256').update(given).digest('hex');
    const age = this.confirmed?.hash === hash ? Date.now() - this.confirmed.at : Infinity;
    if (age < CONFIRMED_SECRET_MS) return true;
    const answer = this.ask(given, hash);
    if (age < RECHECKED_SECRET_MS) {
      answer.catch(() => {}); // a failed re-check leaves the confirmation to age out
      return true;
    }
    return answer;
  }

  /** Payments' verdict on `given`, one question at a time per secret. */
  private ask(given: string, hash: string): Promise<boolean> {
    let asked = this.asking.get(hash);
    if (!asked) {
      asked = (async () => {
        let matches: boolean;
        try {
          matches = (await this.payments.call(checkChatWebhookSecret, { body: { secret: given.slice(0, 200) } })).matches;
        } catch {
          throw serviceUnavailable('The chat webhook secret cannot be checked right now: try again shortly');
        } finally {
          this.asking.delete(hash);
        }
        if (matches) this.confirmed = { hash, at: Date.now() };
        else if (this.confirmed?.hash === hash) this.confirmed = null;
        return matches;
      })();
      this.asking.set(hash, asked);
    }
    return asked;
  }
}
