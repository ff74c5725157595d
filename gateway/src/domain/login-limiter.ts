import { serviceUnavailable, tooManyRequests } from '@bo/platform';
import type { AttemptCounter } from '../clients/attempt-counter';

/** Brute-force limits on sign-in (ASVS 6.1.1, 6.3.1): per account and per client address, 15 minutes. */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 100;
/** Redirect sign-in (/api/login, /api/callback) counts every attempt per address. */
export const MAX_REDIRECT_ATTEMPTS_PER_IP = 100;

/**
 * Counts in Redis so every replica sees the same numbers. When the counter store fails, sign-in
 * fails closed (503) instead of running unlimited.
 */
export class LoginLimiter {
  constructor(private readonly counter: AttemptCounter) {}

  /** Throws 429 when this address or account has failed too often; call before checking a password. */
  async assertMayTry(scope: string, ip: string, account: string): Promise<void> {
    const [byAccount, byIp] = await this.safely(() => Promise.all([this.counter.count(accountKey(scope, account)), this.counter.count(ipKey(scope, ip))]));
    if (byAccount >= MAX_FAILURES_PER_ACCOUNT || byIp >= MAX_FAILURES_PER_IP) throw tooManyRequests('Too many failed sign-in attempts. Try again in 15 minutes.');
  }

  async recordFailure(scope: string, ip: string, account: string): Promise<void> {
    await this.safely(() => Promise.all([this.counter.hit(accountKey(scope, account), LOGIN_WINDOW_MS), this.counter.hit(ipKey(scope, ip), LOGIN_WINDOW_MS)]));
  }

  async recordSuccess(scope: string, account: string): Promise<void> {
    await this.safely(() => this.counter.reset(accountKey(scope, account)));
  }

  /** Counts one redirect sign-in step from an address and throws 429 above the limit. */
  async hitRedirect(ip: string): Promise<void> {
    const count = await this.safely(() => this.counter.hit(`login:redirect:ip:${ip}`, LOGIN_WINDOW_MS));
    if (count > MAX_REDIRECT_ATTEMPTS_PER_IP) throw tooManyRequests('Too many sign-in attempts. Try again in 15 minutes.');
  }

  private async safely<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw serviceUnavailable('Sign-in is unavailable right now');
    }
  }
}

const accountKey = (scope: string, account: string) => `login:${scope}:account:${account.toLowerCase()}`;
const ipKey = (scope: string, ip: string) => `login:${scope}:ip:${ip}`;
