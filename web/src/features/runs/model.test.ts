import { runStatuses, serviceNames, type RunView } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import type { RunsReply } from './api';
import {
  cancelAction, canRetry, durationParts, isActive, keepNewerRows, laterRun, mergeRun, newerOf, newestFirst, patchCached, progressShape, runDurationMs, runOfEvent,
  runServiceList, runStatusList, startedByOf, statusBadge, truncate,
} from './model';

const run = (change: Partial<RunView> = {}): RunView => ({
  id: 'shop-sync.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10',
  service: 'shop-sync',
  kind: 'woocommerce-sync',
  status: 'in_progress',
  progress: { current: 120, total: 400, counters: { updated: 118, failed: 2 } },
  lastError: null,
  startedBy: 'admin:owner',
  schedule: null,
  attempts: 1,
  createdAt: '2026-11-26T08:00:00.000Z',
  startedAt: '2026-11-26T08:00:00.000Z',
  completedAt: null,
  cancelRequested: false,
  version: 7,
  steps: [{ name: 'read-sheet', completedAt: '2026-11-26T08:00:01.000Z' }],
  result: null,
  ...change,
});

describe('the lists mirror the contract', () => {
  it('has every status and every service, in the contract order', () => {
    expect([...runStatusList]).toEqual([...runStatuses]);
    expect([...runServiceList]).toEqual([...serviceNames]);
  });
});

describe('status → actions and badge', () => {
  it.each([
    ['pending', false, true, 'enabled', false, 'gray', 'pending'],
    ['in_progress', false, true, 'enabled', false, 'blue', 'in_progress'],
    ['in_progress', true, true, 'disabled', false, 'yellow', 'cancelling'],
    ['pending', true, true, 'disabled', false, 'yellow', 'cancelling'],
    ['completed', false, false, 'hidden', false, 'green', 'completed'],
    ['failed', false, false, 'hidden', true, 'red', 'failed'],
    ['cancelled', true, false, 'hidden', true, 'orange', 'cancelled'],
  ] as const)('%s (cancel requested: %s)', (status, cancelRequested, active, cancel, retry, palette, tone) => {
    const shown = run({ status, cancelRequested });
    expect(isActive(shown)).toBe(active);
    expect(cancelAction(shown)).toBe(cancel);
    expect(canRetry(shown)).toBe(retry);
    expect(statusBadge(shown)).toEqual({ palette, tone });
  });
});

describe('progressShape', () => {
  const progress = (current: number, total: number | null) => ({ current, total, counters: {} });

  it('is the whole percent of current over total', () => {
    expect(progressShape(run({ progress: progress(120, 400) }))).toEqual({ percent: 30, indeterminate: false, bar: true });
    expect(progressShape(run({ progress: progress(1, 3) })).percent).toBe(33);
    expect(progressShape(run({ progress: progress(2, 3) })).percent).toBe(67);
    expect(progressShape(run({ progress: progress(400, 400), status: 'completed' })).percent).toBe(100);
  });

  it('stays within 0–100 when the figures overshoot, and a total of nothing is all done', () => {
    expect(progressShape(run({ progress: progress(450, 400) })).percent).toBe(100);
    expect(progressShape(run({ progress: progress(-3, 400) })).percent).toBe(0);
    expect(progressShape(run({ progress: progress(0, 0) })).percent).toBe(100);
  });

  it('moves without a figure while the total is unknown, and draws no bar once such a run has ended', () => {
    expect(progressShape(run({ progress: progress(12, null) }))).toEqual({ percent: null, indeterminate: true, bar: true });
    expect(progressShape(run({ progress: progress(0, null), status: 'pending' }))).toEqual({ percent: null, indeterminate: true, bar: true });
    expect(progressShape(run({ progress: progress(12, null), status: 'completed' }))).toEqual({ percent: null, indeterminate: false, bar: false });
  });
});

describe('runDurationMs', () => {
  const now = Date.parse('2026-11-26T08:03:05.400Z');

  it('is start to now while the run moves, start to end once it has ended', () => {
    expect(runDurationMs(run(), now)).toBe(185_400);
    expect(runDurationMs(run({ status: 'completed', completedAt: '2026-11-26T08:00:42.000Z' }), now)).toBe(42_000);
  });

  it('is nothing before the start, or for an ended run without an end time', () => {
    expect(runDurationMs(run({ status: 'pending', startedAt: null }), now)).toBeNull();
    expect(runDurationMs(run({ status: 'failed', completedAt: null }), now)).toBeNull();
    expect(runDurationMs(run({ startedAt: 'not a date' }), now)).toBeNull();
  });

  it('is never negative (a server clock ahead of this one)', () => {
    expect(runDurationMs(run({ startedAt: '2026-11-26T08:03:06.000Z' }), now)).toBe(0);
  });
});

describe('durationParts', () => {
  it.each([
    [0, { unit: 'seconds', s: '0' }],
    [999, { unit: 'seconds', s: '0' }],
    [45_000, { unit: 'seconds', s: '45' }],
    [60_000, { unit: 'minutes', m: '1', s: '00' }],
    [185_400, { unit: 'minutes', m: '3', s: '05' }],
    [3_600_000, { unit: 'hours', h: '1', m: '00' }],
    [2 * 3_600_000 + 4 * 60_000 + 59_000, { unit: 'hours', h: '2', m: '04' }],
    [86_400_000 + 3 * 3_600_000, { unit: 'days', d: '1', h: '03' }],
    [-5, { unit: 'seconds', s: '0' }],
  ] as const)('%d ms', (ms, expected) => {
    expect(durationParts(ms)).toMatchObject(expected);
  });
});

describe('startedByOf', () => {
  it.each([
    ['admin:owner', { by: 'admin', name: 'owner' }],
    ['schedule:expiry-check', { by: 'schedule', name: 'expiry-check' }],
    ['event:payments.invoice.paid', { by: 'event', name: 'payments.invoice.paid' }],
    ['admin:a:b', { by: 'admin', name: 'a:b' }],
    ['system', { by: 'system', name: '' }],
    ['cron', { by: 'other', name: 'cron' }],
    ['robot:x', { by: 'other', name: 'robot:x' }],
  ])('%s', (startedBy, expected) => {
    expect(startedByOf(startedBy)).toEqual(expected);
  });
});

describe('truncate', () => {
  it('keeps a short text, shortens a long one to the length with an ellipsis, on one line', () => {
    expect(truncate('Shop answered 503', 60)).toBe('Shop answered 503');
    expect(truncate('abcdefghij', 6)).toBe('abcde…');
    expect(truncate('abcdefghij', 6)).toHaveLength(6);
    expect(truncate('line one\n  line two', 60)).toBe('line one line two');
  });
});

describe('newestFirst', () => {
  it('sorts by creation time, newest first, without changing what it was given', () => {
    const given = [run({ id: 'a', createdAt: '2026-11-26T08:00:00Z' }), run({ id: 'b', createdAt: '2026-11-26T09:00:00Z' }), run({ id: 'c', createdAt: '2026-11-25T09:00:00Z' })];
    expect(newestFirst(given).map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(given.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('a run that arrives', () => {
  const held = run();
  const event = { ...run({ version: 8, progress: { current: 200, total: 400, counters: { updated: 198, failed: 2 } } }), steps: undefined, result: undefined };

  it('is laid over the held run, which keeps its steps and result when the event carries none', () => {
    const merged = mergeRun(held, event);
    expect(merged.progress.current).toBe(200);
    expect(merged.version).toBe(8);
    expect(merged.steps).toEqual(held.steps);
    expect(merged.result).toBeNull();
  });

  it('takes the steps and result when it carries them', () => {
    const merged = mergeRun(held, { ...event, steps: [], result: { updated: 400 } });
    expect(merged.steps).toEqual([]);
    expect(merged.result).toEqual({ updated: 400 });
  });

  it('changes nothing when it is older than the held run', () => {
    expect(mergeRun(held, { ...event, version: 6 })).toBe(held);
  });

  it('updates its row in a list, and its own answer; leaves other answers as they were', () => {
    const other = run({ id: 'pricing.1', service: 'pricing' });
    const list: RunsReply = { data: [other, held], unreachable: ['payments'] };
    const patched = patchCached(list, event) as RunsReply;
    expect(patched.data[1].progress.current).toBe(200);
    expect(patched.data[0]).toBe(other);
    expect(patched.unreachable).toEqual(['payments']);
    expect((patchCached(held, event) as RunView).version).toBe(8);

    const without: RunsReply = { data: [other], unreachable: [] };
    expect(patchCached(without, event)).toBe(without);
    expect(patchCached(other, event)).toBe(other);
    expect(patchCached(undefined, event)).toBeUndefined();
    const schedules = { data: [{ name: 'x' }], unreachable: [] };
    expect(patchCached(schedules, event)).toEqual(schedules);
  });
});

describe('laterRun', () => {
  const step = (name: string) => ({ name, completedAt: '2026-11-26T08:00:05.000Z' });

  it('is the fetched run when it is as new as the held one or newer', () => {
    const fetched = run({ version: 9 });
    expect(laterRun(run({ version: 8 }), fetched)).toBe(fetched);
    expect(laterRun(run({ version: 9 }), fetched)).toBe(fetched);
  });

  it("keeps the streamed progress over an older answer, with the answer's longer steps and its result", () => {
    const streamed = run({ version: 12, progress: { current: 300, total: 400, counters: {} }, steps: [step('plan')] });
    const fetched = run({ version: 10, steps: [step('plan'), step('batch-1')], result: { synced: 3 } });
    const kept = laterRun(streamed, fetched);
    expect(kept.version).toBe(12);
    expect(kept.progress.current).toBe(300);
    expect(kept.steps.map((s) => s.name)).toEqual(['plan', 'batch-1']);
    expect(kept.result).toEqual({ synced: 3 });
  });

  it('is the held run itself when the older answer adds nothing', () => {
    const streamed = run({ version: 12, steps: [step('plan'), step('batch-1')] });
    expect(laterRun(streamed, run({ version: 10, steps: [step('plan')] }))).toBe(streamed);
  });
});

describe('keepNewerRows', () => {
  it('keeps a row the stream moved past, takes every other row as fetched', () => {
    const streamed = run({ version: 9, progress: { current: 300, total: 400, counters: {} } });
    const fetched: RunsReply = { data: [run({ version: 8 }), run({ id: 'pricing.1', version: 1 })], unreachable: [] };
    const kept = keepNewerRows({ data: [streamed], unreachable: [] }, fetched);
    expect(kept.data[0]).toBe(streamed);
    expect(kept.data[1]).toBe(fetched.data[1]);
  });

  it('is the fetched answer itself when nothing held is newer', () => {
    const fetched: RunsReply = { data: [run({ version: 9 })], unreachable: [] };
    expect(keepNewerRows(undefined, fetched)).toBe(fetched);
    expect(keepNewerRows({ data: [run({ version: 8 })], unreachable: [] }, fetched)).toBe(fetched);
  });
});

describe('newerOf', () => {
  it('is the copy with the higher version, or the one there is', () => {
    const older = run({ version: 3 });
    const newer = run({ version: 4 });
    expect(newerOf(older, newer)).toBe(newer);
    expect(newerOf(newer, older)).toBe(newer);
    expect(newerOf(older, run({ version: 3 }))).toBe(older);
    expect(newerOf(undefined, older)).toBe(older);
    expect(newerOf(older, undefined)).toBe(older);
    expect(newerOf(undefined, undefined)).toBeUndefined();
  });
});

describe('runOfEvent', () => {
  it('reads the run a progress event carries', () => {
    expect(runOfEvent(JSON.stringify(run()))).toMatchObject({ id: run().id, version: 7 });
  });

  it.each(['', 'not json', 'null', '42', '{"id":"x"}', '{"version":3}'])('is null for %j', (data) => {
    expect(runOfEvent(data)).toBeNull();
  });
});
