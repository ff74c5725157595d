import { errorInfo, GoogleApiError } from './errors';

export interface QuotaLimits {
  readsPerMinutePerUser: number;
  writesPerMinutePerUser: number;
}
export type QuotaKind = 'read' | 'write';

export const DEFAULT_QUOTAS: QuotaLimits = { readsPerMinutePerUser: 60, writesPerMinutePerUser: 60 };

/** Google's per-user per-minute quotas: counted in whole-minute windows that refill at each minute. */
export class QuotaMeter {
  private readonly counts = new Map<string, { minute: number; used: number }>();

  constructor(
    public limits: QuotaLimits = { ...DEFAULT_QUOTAS },
    private readonly now: () => number = Date.now,
  ) {}

  take(user: string, kind: QuotaKind): void {
    const minute = Math.floor(this.now() / 60_000);
    const key = `${kind} ${user}`;
    const count = this.counts.get(key);
    const current = count && count.minute === minute ? count : { minute, used: 0 };
    const limit = kind === 'read' ? this.limits.readsPerMinutePerUser : this.limits.writesPerMinutePerUser;
    if (current.used >= limit) throw exhausted(kind, limit);
    current.used += 1;
    this.counts.set(key, current);
  }

  /** Requests counted in the current minute, per user and kind. */
  usage(): { user: string; kind: QuotaKind; used: number; limit: number }[] {
    const minute = Math.floor(this.now() / 60_000);
    return [...this.counts].flatMap(([key, count]) => {
      if (count.minute !== minute) return [];
      const [kind, user] = key.split(' ') as [QuotaKind, string];
      return [{ user, kind, used: count.used, limit: kind === 'read' ? this.limits.readsPerMinutePerUser : this.limits.writesPerMinutePerUser }];
    });
  }

  resetCounters(): void {
    this.counts.clear();
  }
}

function exhausted(kind: QuotaKind, limit: number): GoogleApiError {
  const metric = kind === 'read' ? 'Read requests' : 'Write requests';
  const limitName = kind === 'read' ? 'ReadRequestsPerMinutePerUser' : 'WriteRequestsPerMinutePerUser';
  return new GoogleApiError(
    429,
    'RESOURCE_EXHAUSTED',
    `Quota exceeded for quota metric '${metric}' and limit '${metric} per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.`,
    [
      errorInfo('RATE_LIMIT_EXCEEDED', { quota_metric: `sheets.googleapis.com/${kind}_requests`, quota_limit: limitName, quota_limit_value: String(limit) }),
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Request a higher quota limit.', url: 'https://cloud.google.com/docs/quotas/help/request_increase' }] },
    ],
  );
}
