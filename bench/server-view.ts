import { readdir, readFile } from 'node:fs/promises';

/**
 * What a service saw of a run, from its own /metrics and (Linux) the kernel's scheduler counters
 * for its main thread: time spent handling requests versus time spent waiting for a CPU.
 */
export interface ServerView {
  /** GET 200 answers of `route` in the interval, and how many took at most 1 ms and 10 ms inside the server. */
  answered: number;
  within1ms: number;
  within10ms: number;
  /** Main-thread CPU time and time it was runnable but waited for a core; null off Linux. */
  cpuMs: number | null;
  waitedMs: number | null;
}

interface Snapshot {
  buckets: Map<string, number>;
  count: number;
  sched: [number, number] | null;
}

/** Reads the counters now. */
export async function snapshot(url: string, pid: number, route: string): Promise<Snapshot> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const buckets = new Map<string, number>();
  let count = 0;
  for (const line of text.split('\n')) {
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (!line.includes(`route="${route}"`) || !line.includes('method="GET"') || !line.includes('status="200"')) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (line.startsWith('http_request_duration_seconds_bucket') && le) buckets.set(le, value);
    if (line.startsWith('http_request_duration_seconds_count')) count = value;
  }
  const sched = await readFile(`/proc/${pid}/schedstat`, 'utf8').then(
    (raw) => raw.split(' ').slice(0, 2).map((ns) => Number(ns) / 1e6) as [number, number],
    () => null,
  );
  return { buckets, count, sched };
}

export function between(before: Snapshot, after: Snapshot): ServerView {
  const bucket = (le: string) => (after.buckets.get(le) ?? 0) - (before.buckets.get(le) ?? 0);
  const sched = before.sched && after.sched ? [after.sched[0] - before.sched[0], after.sched[1] - before.sched[1]] : null;
  return {
    answered: after.count - before.count,
    within1ms: bucket('0.001'),
    within10ms: bucket('0.01'),
    cpuMs: sched?.[0] ?? null,
    waitedMs: sched?.[1] ?? null,
  };
}

/** CPU time of every thread of a process so far (Linux), or null where /proc does not tell it. */
export async function processCpuMs(pid: number): Promise<number | null> {
  try {
    const threads = await readdir(`/proc/${pid}/task`);
    const times = await Promise.all(threads.map((tid) => readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')));
    return times.reduce((sum, raw) => sum + Number(raw.split(' ')[0]) / 1e6, 0);
  } catch {
    return null;
  }
}
