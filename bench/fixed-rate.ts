import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandom } from '@bo/sim-kit';

export interface FixedRateRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FixedRateResult {
  sent: number;
  /** Answered with a 2xx. */
  answered: number;
  /** Answered otherwise, or not at all (a connection error). */
  errors: number;
  /** Milliseconds from each request's scheduled time to the end of its answer. */
  latency: { p50: number; p90: number; p99: number; max: number };
}

/**
 * An open-loop load at a fixed rate: every request leaves at its scheduled time, whether or not
 * the earlier ones were answered, and its latency counts from that time, so a stall is charged to
 * every request it delayed (no coordinated omission). Arrivals are a Poisson process (customers
 * write independently of each other), seeded so runs compare; `even` spaces them exactly.
 *
 * autocannon's `overallRate` is not this: each of its connections sends back to back until it has
 * made its share of the second, then waits for the next second, so "200 a second" arrives as a
 * burst of 200 at the top of every second and measures 20 requests in flight, not the rate.
 */
export async function fixedRate(options: { url: string; rate: number; durationS: number; requests: FixedRateRequest[]; arrivals?: 'poisson' | 'even'; seed?: number }): Promise<FixedRateResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const random = seededRandom(options.seed ?? 1);
  const due: number[] = [];
  for (let at = 0; at < options.durationS * 1000; ) {
    due.push(at);
    at += options.arrivals === 'even' ? 1000 / options.rate : (-Math.log(1 - random()) * 1000) / options.rate;
  }

  const latencies: number[] = [];
  let answered = 0;
  let errors = 0;
  const send = (request: FixedRateRequest, scheduledAt: number) =>
    new Promise<void>((resolve) => {
      const done = (ok: boolean) => {
        latencies.push(performance.now() - scheduledAt);
        if (ok) answered++;
        else errors++;
        resolve();
      };
      const outgoing = http.request({ agent, host: target.hostname, port: target.port, method: request.method, path: request.path, headers: request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) } }, (response) => {
        response.on('data', () => {});
        response.on('end', () => done(response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300));
        response.on('error', () => done(false));
      });
      outgoing.on('error', () => done(false));
      outgoing.end(request.body);
    });

  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let next = 0; next < due.length; ) {
    const now = performance.now() - start;
    // Every request whose time has come leaves now (a late timer is charged to its latency).
    for (; next < due.length && due[next] <= now; next++) inFlight.push(send(options.requests[next % options.requests.length], start + due[next]));
    if (next < due.length) await sleep(Math.max(0, due[next] - (performance.now() - start)));
  }
  await Promise.all(inFlight);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (share: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] * 10) / 10;
  return { sent: due.length, answered, errors, latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) } };
}
