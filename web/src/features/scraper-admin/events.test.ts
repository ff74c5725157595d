import { describe, expect, it } from 'vitest';
import type { ScrapeJob } from './api';
import { elapsedMs, followJobProgress, initialProgress, progressOf, REOPEN_FIRST_MS, type JobProgress, type StreamState } from './events';
import { FakeSource } from '../runs/fake-event-source';

function follow() {
  const sources: FakeSource[] = [];
  const events: [string, unknown][] = [];
  const states: StreamState[] = [];
  const pending: { run: () => void; ms: number }[] = [];
  const close = followJobProgress(
    '/api/scraper/jobs/7/progress',
    { onEvent: (name, data) => events.push([name, data]), onState: (state) => states.push(state) },
    (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    { set: (run, ms) => pending.push({ run, ms }), clear: () => pending.splice(0) },
  );
  return { sources, source: () => sources.at(-1)!, events, states, pending, close };
}

const job = (over: Partial<ScrapeJob> = {}): ScrapeJob => ({
  id: 7, marketplaceId: 1, marketplaceName: 'GameMarket', status: 'pending', currentPage: 0, totalPages: 4, startPage: 1, endPage: 4, totalProducts: 0,
  error: null, startedAt: null, completedAt: null, createdAt: '2026-11-26T08:00:00.000Z', ...over,
});

describe('followJobProgress', () => {
  it('reports each event of the contract and, on the job’s end, closes the stream', () => {
    const { source, events, states } = follow();
    expect(source().url).toBe('/api/scraper/jobs/7/progress');
    source().open();
    source().emit('init', job());
    source().emit('page_start', { jobId: 7, pageNumber: 1 });
    source().emit('page_complete', 'not json');
    source().emit('job_complete', job({ status: 'completed' }));
    expect(events.map(([name]) => name)).toEqual(['init', 'page_start', 'job_complete']);
    expect(source().closed).toBe(true);
    expect(states.at(-1)).toBe('ended');
    source().emit('page_start', { pageNumber: 2 });
    expect(events).toHaveLength(3);
  });

  it("says the connection is lost on an error, and live again once the browser's reconnect opens or an event arrives", () => {
    const { source, states, events } = follow();
    source().open();
    source().fail(0); // the browser reconnects by itself
    expect(states.at(-1)).toBe('lost');
    source().emit('page_complete', { currentPage: 1, totalProducts: 8 });
    expect(states.at(-1)).toBe('live');
    expect(events).toHaveLength(1);
    source().fail(0);
    source().open();
    expect(states.at(-1)).toBe('live');
  });

  it('opens a stream the browser gave up on again after a pause, and its events count', () => {
    const { sources, source, states, pending, events } = follow();
    source().fail(2);
    expect(states.at(-1)).toBe('lost');
    expect(sources[0].closed).toBe(true);
    expect(pending.map((timer) => timer.ms)).toEqual([REOPEN_FIRST_MS]);
    pending.shift()!.run();
    expect(sources).toHaveLength(2);
    source().fail(2);
    expect(pending.map((timer) => timer.ms)).toEqual([REOPEN_FIRST_MS * 2]);
    pending.shift()!.run();
    source().open();
    expect(states.at(-1)).toBe('live');
    source().emit('init', job({ status: 'in_progress' }));
    expect(events.map(([name]) => name)).toEqual(['init']);
    // An old source's late event is not reported.
    sources[0].emit('page_start', { pageNumber: 9 });
    expect(events).toHaveLength(1);
  });

  it('reports nothing more once the caller has closed it, and stops a pending reopen', () => {
    const { source, events, pending, close } = follow();
    source().fail(2);
    close();
    expect(pending).toEqual([]);
    source().emit('init', job());
    expect(events).toEqual([]);
  });
});

describe('progressOf (document 2 §4)', () => {
  const defaults = { pageError: 'Unknown error', jobError: 'Job failed' };
  const at = (state: JobProgress, name: Parameters<typeof progressOf>[1], data: unknown, now: number) => progressOf(state, name, data, now, defaults);

  it('follows a job from init to its end: status, page, pages done, products, the timer', () => {
    let state = at(initialProgress(), 'init', job(), 1_000);
    expect(state).toMatchObject({ status: 'pending', currentPage: 0, totalPages: 4, timerStartedAt: 1_000, endedAt: null });
    state = at(state, 'job_start', job({ status: 'in_progress', startedAt: '2026-11-26T08:00:01.000Z' }), 5_000);
    expect(state).toMatchObject({ status: 'in_progress', timerStartedAt: 5_000 }); // the timer restarts
    state = at(state, 'page_start', { jobId: 7, pageNumber: 1, status: 'in_progress' }, 5_100);
    expect(state.activePage).toBe(1);
    state = at(state, 'page_failed', { jobId: 7, pageNumber: 2, status: 'failed', error: null }, 6_000);
    expect(state.error).toBe('Unknown error');
    state = at(state, 'page_complete', { jobId: 7, pageNumber: 1, productsFound: 8, currentPage: 1, totalProducts: 8 }, 7_000);
    expect(state).toMatchObject({ currentPage: 1, totalProducts: 8, error: null });
    // Without the job's counts, one more page and its products.
    state = at(state, 'page_complete', { jobId: 7, pageNumber: 3, productsFound: 4 }, 8_000);
    expect(state).toMatchObject({ currentPage: 2, totalProducts: 12 });
    expect(elapsedMs(state, 9_000)).toBe(4_000);
    state = at(state, 'job_complete', job({ status: 'completed', currentPage: 4, totalProducts: 20, startedAt: '2026-11-26T08:00:01.000Z', completedAt: '2026-11-26T08:00:30.000Z' }), 10_000);
    expect(state).toMatchObject({ status: 'completed', currentPage: 4, totalProducts: 20, error: null, endedAt: 10_000 });
    expect(elapsedMs(state, 99_000)).toBe(5_000); // stopped at the end
  });

  it("fails with the job's error, 'Job failed' without one; a cancel keeps what was shown", () => {
    const running = at(initialProgress(), 'job_start', job({ status: 'in_progress' }), 0);
    expect(at(running, 'job_failed', job({ status: 'failed', error: 'selectors matched nothing' }), 10)).toMatchObject({ status: 'failed', error: 'selectors matched nothing' });
    expect(at(running, 'job_failed', job({ status: 'failed' }), 10)).toMatchObject({ status: 'failed', error: 'Job failed' });
    expect(at(running, 'job_failed', {}, 10)).toMatchObject({ status: 'failed', error: 'Job failed' });
    expect(at(running, 'job_cancelled', job({ status: 'cancelled', currentPage: 1 }), 10)).toMatchObject({ status: 'cancelled', currentPage: 1 });
  });

  it('keeps the server’s times for a job that had ended before the dialog looked', () => {
    const ended = job({ status: 'completed', currentPage: 4, startedAt: '2026-11-26T08:00:00.000Z', completedAt: '2026-11-26T08:01:05.000Z' });
    let state = at(initialProgress(), 'init', ended, Date.parse('2026-11-26T09:00:00.000Z'));
    state = at(state, 'job_complete', ended, Date.parse('2026-11-26T09:00:01.000Z'));
    expect(elapsedMs(state, Date.now())).toBe(65_000);
  });
});
