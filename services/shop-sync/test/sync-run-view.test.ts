import { describe, expect, it } from 'vitest';
import { runView, SYNC_HEARTBEAT_STALE_MS } from '../src/store/shop-store';

/** A run's status as the page sees it: a running row whose process stopped beating is interrupted. */
describe('sync run view', () => {
  const record = (status: string, heartbeatAgoMs: number, now: number) => ({
    id: 1, status, startedAt: new Date(now - 60_000), heartbeatAt: new Date(now - heartbeatAgoMs), finishedAt: null,
    total: 10, processed: 4, synced: 4, failed: 0, skipped: 0, batchCalls: 1, failures: [], error: null,
  });

  it('shows a running run as running while its heartbeat is fresh, interrupted once it is stale', () => {
    const now = Date.now();
    expect(runView(record('running', 1_000, now), now).status).toBe('running');
    expect(runView(record('running', SYNC_HEARTBEAT_STALE_MS + 1, now), now).status).toBe('interrupted');
    expect(runView(record('finished', SYNC_HEARTBEAT_STALE_MS * 10, now), now).status).toBe('finished');
  });
});
