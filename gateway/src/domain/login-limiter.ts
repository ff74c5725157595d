import { serviceUnavailable, tooManyRequests } from '@bo/platform';
import type { AttemptCounter } from '@bo/platform/cache';

/**
 * Brute-force limits on sign-in (ASVS 6.1.1, 6.3.1; NIST 800-63B 5.2.2), per 15-minute window:
 * 10 failures for one account from one address, 100 from one address whatever the account, and
 * 100 for one account from everywhere. The per-account ceiling is ten times the pair's, so one
 * address's failures alone can never lock an account out for everybody else.
 */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT_AND_IP = 10;
export const MAX_FAILURES_PER_IP = 100;
export const MAX_FAILURES_PER_ACCOUNT = 100;
/** Redirect sign-in (/api/login, /api/callback) counts every attempt per address. */
export const MAX_REDIRECT_ATTEMPTS_PER_IP = 100;

const TOO_MANY = 'Too many failed sign-in attempts. Try again in 15 minutes.';

/** A reserved sign-in attempt: it counts as a failure unless `succeeded` is called. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
  /** The check itself could not be made (a service down): the attempt is given back, nothing reset. */
  abandoned(): Promise<void>;
}

/**
 * Counts in Redis so every replica sees the same numbers. The attempt is reserved before the
 * password is checked, atomically against every limit, so parallel guesses cannot slip past a
 * count read earlier. When the counter store fails, sign-in fails closed (503).
 */
export class LoginLimiter {
  constructor(private readonly counter: AttemptCounter) {}

  /** Reserves one attempt for this account from this address, or throws 429; call before checking a password. */
  async begin(scope: string, ip: string, account: string): Promise<SignInAttempt> {
    const name = account.toLowerCase();
    const pair = `login:${scope}:pair:${name}:${ip}`;
    const byIp = `login:${scope}:ip:${ip}`;
    const byAccount = `login:${scope}:account:${name}`;
    const granted = await this.safely(() =>
      this.counter.reserve(
        [
          { key: pair, max: MAX_FAILURES_PER_ACCOUNT_AND_IP },
          { key: byIp, max: MAX_FAILURES_PER_IP },
          { key: byAccount, max: MAX_FAILURES_PER_ACCOUNT },
        ],
        LOGIN_WINDOW_MS,
      ),
    );
    if (!granted) throw tooManyRequests(TOO_MANY);
    return {
      // A success clears this address's failures for the account and gives the attempt back.
      succeeded: () => this.safely(async () => void (await Promise.all([this.counter.reset(pair), this.counter.release([byIp, byAccount])]))),
      abandoned: () => this.safely(() => this.counter.release([pair, byIp, byAccount])),
    };
  }

  /** Counts one redirect sign-in step from an address and throws 429 above the limit. */
  async hitRedirect(ip: string): Promise<void> {
    const granted = await this.safely(() => this.counter.reserve([{ key: `login:redirect:ip:${ip}`, max: MAX_REDIRECT_ATTEMPTS_PER_IP }], LOGIN_WINDOW_MS));
    if (!granted) throw tooManyRequests('Too many sign-in attempts. Try again in 15 minutes.');
  }

  private async safely<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw serviceUnavailable('Sign-in is unavailable right now');
    }
  }
}
