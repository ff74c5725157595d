import { ServiceClient, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import { checkChatWebhookSecret } from '@bo/proto';

/**
 * The chat flow's X-Webhook-Secret, which payments keeps (sealed, rotatable from /qpay): ai-chat
 * asks on each request rather than holding a copy, so a rotation counts here at once too.
 */
export class ChatSecret {
  private readonly payments: ServiceClient;

  constructor(options: { paymentsUrl: string; signer: IdentitySigner }) {
    this.payments = new ServiceClient({ baseUrl: options.paymentsUrl, signer: options.signer, timeoutMs: 2_000 });
  }

  async matches(given: string | undefined): Promise<boolean> {
    if (!given) return false;
    try {
      return (await this.payments.call(checkChatWebhookSecret, { body: { secret: given.slice(0, 200) } })).matches;
    } catch {
      throw serviceUnavailable('The chat webhook secret cannot be checked right now: try again shortly');
    }
  }
}
