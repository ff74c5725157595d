import { describe, expect, it } from 'vitest';
import { followRunEvents, type StreamState } from './events';
import { FakeSource } from './fake-event-source';

function follow() {
  let source: FakeSource | undefined;
  const runs: unknown[] = [];
  const states: StreamState[] = [];
  let ended = 0;
  const close = followRunEvents(
    '/api/admin/runs/shop-sync.x/events',
    { onRun: (run) => runs.push(run), onEnd: () => ended++, onState: (state) => states.push(state) },
    (url) => (source = new FakeSource(url)),
  );
  return { source: source!, runs, states, ended: () => ended, close };
}

describe('followRunEvents', () => {
  it('opens the stream, reports each progress event and, on end, closes it', () => {
    const { source, runs, states, ended } = follow();
    expect(source.url).toBe('/api/admin/runs/shop-sync.x/events');
    source.open();
    source.emit('progress', JSON.stringify({ id: 'shop-sync.x', version: 3, status: 'in_progress' }));
    source.emit('progress', 'not a run');
    source.emit('progress', JSON.stringify({ id: 'shop-sync.x', version: 4, status: 'completed' }));
    source.emit('end', '');
    expect(runs).toEqual([
      { id: 'shop-sync.x', version: 3, status: 'in_progress' },
      { id: 'shop-sync.x', version: 4, status: 'completed' },
    ]);
    expect(ended()).toBe(1);
    expect(source.closed).toBe(true);
    expect(states).toEqual(['connecting', 'live', 'ended']);
  });

  it('says it is reconnecting after a dropped connection, and failed when the answer was no stream', () => {
    const dropped = follow();
    dropped.source.open();
    dropped.source.fail(0);
    expect(dropped.states.at(-1)).toBe('reconnecting');
    dropped.source.open();
    expect(dropped.states.at(-1)).toBe('live');

    const refused = follow();
    refused.source.fail(2);
    expect(refused.states).toEqual(['connecting', 'failed']);
  });

  it('reports nothing more once the caller has closed it (left the run, or unmounted)', () => {
    const { source, runs, states, ended, close } = follow();
    source.open();
    close();
    expect(source.closed).toBe(true);
    source.emit('progress', JSON.stringify({ id: 'shop-sync.x', version: 5 }));
    source.emit('end', '');
    source.fail(2);
    expect(runs).toEqual([]);
    expect(ended()).toBe(0);
    expect(states).toEqual(['connecting', 'live']);
  });
});
