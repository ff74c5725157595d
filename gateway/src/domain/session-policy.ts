/**
 * Admin session lifetime (ASVS 7.3.1/7.3.2, NIST 800-63B rev. 3 AAL2): 30 minutes idle, 12 hours
 * absolute. Times are epoch milliseconds kept inside the session itself.
 */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/** lastSeenAt is rewritten at most this often, so a busy session is not a database write per request. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface SessionTimes {
  createdAt?: number;
  lastSeenAt?: number;
}

/** When the session row may be deleted: the earlier of the idle and the absolute deadline. */
export function sessionExpiry(times: SessionTimes, now = Date.now()): Date {
  const createdAt = times.createdAt ?? now;
  const lastSeenAt = times.lastSeenAt ?? createdAt;
  return new Date(Math.min(lastSeenAt + IDLE_TIMEOUT_MS, createdAt + ABSOLUTE_TIMEOUT_MS));
}

export type SessionVerdict = 'fresh' | 'touch' | 'expired';

/** Whether a loaded session is still alive, and whether its lastSeenAt should be advanced. */
export function judgeSession(times: SessionTimes, now = Date.now()): SessionVerdict {
  if (times.createdAt === undefined) return 'fresh';
  if (sessionExpiry(times, now).getTime() <= now) return 'expired';
  return now - (times.lastSeenAt ?? times.createdAt) >= TOUCH_INTERVAL_MS ? 'touch' : 'fresh';
}
