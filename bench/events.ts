import { createEnvelope } from '@bo/proto';
import { createEventsDatabase, item, itemEvent, pgTransport, rabbitMqTransport, type TransportUnderTest } from '../platform/test/events/harness';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, the event buses: an event published and handed to its consumer, one at a time
 * (each publish waits for the previous one to arrive), on the embedded run's PostgreSQL bus and on
 * RabbitMQ, this machine's servers. Per bus, p50, p99 and max of ROUND_TRIPS after WARMUP, beside
 * the target for the median (reported, not asserted):
 * - PostgreSQL, < 30 ms: the publish is committed to disk first, and NOTIFY wakes the consumer; a
 *   delivery left to the 1 s back-up poll would show here as ~500 ms (the test
 *   platform/test/events/delivery.test.ts checks the wake-up itself);
 * - RabbitMQ, < 15 ms: amqplib without noDelay took ~44 ms a message (the test checks the setting).
 * Figures of 2026-11: PostgreSQL 2–5 ms alone, 11 ms beside the test suites; RabbitMQ 2–4 ms alone,
 * 5–9 ms beside them (two cores).
 */

const ROUND_TRIPS = scaled(500, 40);
const WARMUP = scaled(20, 5);
const TARGET_MEDIAN_MS: Record<string, number> = { postgresql: 30, rabbitmq: 15 };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function roundTrips(under: TransportUnderTest, databaseUrl: string): Promise<number[]> {
  const { transport, close } = await under.open(databaseUrl);
  const pinged = itemEvent('pinged');
  let delivered: (() => void) | undefined;
  const subscription = await transport.consume({ service: 'bench-latency', bindings: [pinged.name] }, async () => delivered?.());
  try {
    const times: number[] = [];
    for (let n = 0; n < WARMUP + ROUND_TRIPS; n++) {
      const arrived = new Promise<void>((resolve) => (delivered = resolve));
      const started = performance.now();
      await transport.publish(createEnvelope(pinged, item(n)));
      await arrived;
      times.push(performance.now() - started);
    }
    return times.slice(WARMUP);
  } finally {
    await subscription.stop();
    await close();
  }
}

async function main(): Promise<void> {
  const database = await createEventsDatabase('bench_events');
  const lines = [modeLine(), `event buses: publish → consumer, ${ROUND_TRIPS} one at a time after ${WARMUP} not counted`];
  try {
    for (const under of [pgTransport, rabbitMqTransport]) {
      const times = await roundTrips(under, database.url);
      const median = percentile(times, 50);
      const target = TARGET_MEDIAN_MS[under.name];
      lines.push(
        `  ${under.name}: p50 ${median.toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms` +
          ` (target median < ${target} ms: ${median < target ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await database.drop();
  }
  console.log(lines.join('\n'));
}

await main();
