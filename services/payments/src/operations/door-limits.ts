import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerAddress, serviceUnavailable, tooManyRequests } from '@bo/platform';
import type { AttemptCounter, Limit } from '@bo/platform/cache';

/**
 * Ceilings of the public payment doors, per fixed one-minute window, counted where every replica
 * sees them (Redis when distributed):
 * - the chat webhook per address: 300 — ManyChat sends every shop's External Requests from a few
 *   addresses, so this must carry a busy hour's peak (5 orders a second) while a leaked secret
 *   still cannot turn into thousands of QPay invoices a minute;
 * - the chat webhook per subscriber: 10 — a person taps "pay" a few times at most; more is a
 *   script, and each request may make an invoice at QPay;
 * - payment notices per address: 60 a minute at each of two doors — the legacy callback (it names
 *   no token, so each call may cost a QPay check; QPay itself uses the per-invoice callback URLs),
 *   and the per-invoice callback URLs called for an invoice not ours or with a wrong token (each a
 *   row of the callback log). QPay's own callbacks (our invoice, its token) never count, so its
 *   retries are never refused.
 */
export const DOOR_WINDOW_MS = 60_000;
export const WEBHOOK_PER_ADDRESS = 300;
export const WEBHOOK_PER_SUBSCRIBER = 10;
export const CALLBACK_PER_ADDRESS = 60;

/** The payment doors' rate limits: a refused request is a 429 with Retry-After, counted nowhere else. */
export class DoorLimits {
  constructor(private readonly counter: AttemptCounter) {}

  webhookByAddress = (request: FastifyRequest, reply: FastifyReply) =>
    this.take(reply, { key: `webhook:ip:${callerAddress(request)}`, max: WEBHOOK_PER_ADDRESS }, 'Too many payment requests from this address');

  webhookBySubscriber = (userId: string, reply: FastifyReply) =>
    this.take(reply, { key: `webhook:user:${userId}`, max: WEBHOOK_PER_SUBSCRIBER }, `Too many payment requests for subscriber ${userId}`);

  /** One call of the legacy callback door (see CALLBACK_PER_ADDRESS). */
  legacyCallbackByAddress = (request: FastifyRequest, reply: FastifyReply) =>
    this.take(reply, { key: `callback:ip:${callerAddress(request)}`, max: CALLBACK_PER_ADDRESS }, 'Too many payment notices from this address');

  /** One call of a per-invoice callback URL that is not QPay's for one of our invoices (see CALLBACK_PER_ADDRESS). */
  strayCallbackByAddress = (request: FastifyRequest, reply: FastifyReply) =>
    this.take(reply, { key: `callback-stray:ip:${callerAddress(request)}`, max: CALLBACK_PER_ADDRESS }, 'Too many payment notices from this address');

  private async take(reply: FastifyReply, limit: Limit, what: string): Promise<void> {
    let granted: boolean;
    try {
      granted = await this.counter.reserve([limit], DOOR_WINDOW_MS);
    } catch {
      // Without the shared counter no limit holds: refuse rather than let the door open wide.
      throw serviceUnavailable('Payment requests cannot be counted right now; try again shortly');
    }
    if (granted) return;
    // A fixed window: waiting its length is always enough.
    const seconds = Math.ceil(DOOR_WINDOW_MS / 1000);
    reply.header('retry-after', String(seconds));
    throw tooManyRequests(`${what}: at most ${limit.max} a minute. Try again in ${seconds} seconds.`);
  }
}
