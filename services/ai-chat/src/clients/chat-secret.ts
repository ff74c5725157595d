import { createHash } from 'node:crypto';
import { AppError, ServiceClient, serviceUnavailable, type IdentitySigner, type Logger } from '@bo/platform';
import type { AttemptCounter } from '@bo/platform/cache';
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
 * Wrong secrets per address and minute (counted where every replica sees them): past this, an
 * address that keeps guessing gets 429, and each replica stops asking payments for it for the rest
 * of the minute. Only wrong verdicts count, so ManyChat's own few addresses, which send the right
 * secret, are never refused for a burst or for payments being away.
 */
export const SECRET_GUESSES_PER_ADDRESS = 30;
export const SECRET_GUESS_WINDOW_MS = 60_000;

/** Too many wrong secrets from one address: a 429 with when to try again. */
export class TooManyGuesses extends AppError {
  readonly retryAfterSeconds = Math.ceil(SECRET_GUESS_WINDOW_MS / 1000);

  constructor() {
    super(429, 'rate_limited', `Too many wrong chat webhook secrets from this address: at most ${SECRET_GUESSES_PER_ADDRESS} a minute. Try again in ${Math.ceil(SECRET_GUESS_WINDOW_MS / 1000)} seconds.`);
  }
}

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
  /** Addresses past SECRET_GUESSES_PER_ADDRESS, until when this process refuses them without asking payments. */
  private readonly guessing = new Map<string, number>();

  constructor(private readonly options: { paymentsUrl: string; signer: IdentitySigner; guesses: AttemptCounter; logger: Logger }) {
    this.payments = new ServiceClient({ baseUrl: options.paymentsUrl, signer: options.signer, timeoutMs: 2_000 });
  }

  /** Whether `given` is the secret; `address` is the caller's (a wrong secret counts against it). */
  async matches(given: string | undefined, address: string): Promise<boolean> {
    // Payments keeps secrets of 32 to 200 characters: a longer header is no secret of ours.
    if (!given || given.length > 200) return false;
    const hash = createHash('sha256').update(given).digest('hex');
    const age = this.confirmed?.hash === hash ? Date.now() - this.confirmed.at : Infinity;
    if (age < CONFIRMED_SECRET_MS) return true;
    if (age < RECHECKED_SECRET_MS) {
      this.ask(given, hash).catch(() => {}); // a failed re-check leaves the confirmation to age out
      return true;
    }
    if ((this.guessing.get(address) ?? 0) > Date.now()) throw new TooManyGuesses();
    const matches = await this.ask(given, hash);
    if (!matches) await this.countWrong(address);
    return matches;
  }

  /**
   * Counts a wrong secret against the address (where every replica sees it); past the limit the
   * address is refused here for the rest of the window without payments being asked. Only wrong
   * verdicts count: a burst with the right secret, or payments being away, never fills it.
   */
  private async countWrong(address: string): Promise<void> {
    const counted = await this.options.guesses.reserve([{ key: `chat-secret:ip:${address}`, max: SECRET_GUESSES_PER_ADDRESS }], SECRET_GUESS_WINDOW_MS).catch((error: unknown) => {
      // Without the shared counter the wrong secret is still refused (401); the chat must not stop because Redis did.
      this.options.logger.warn({ err: error }, 'wrong chat webhook secrets cannot be counted right now');
      return true;
    });
    if (counted) return;
    const now = Date.now();
    // Addresses whose window is over are forgotten, so a spray of addresses cannot grow the map for ever.
    for (const [known, until] of this.guessing) if (until <= now) this.guessing.delete(known);
    this.guessing.set(address, now + SECRET_GUESS_WINDOW_MS);
    throw new TooManyGuesses();
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
