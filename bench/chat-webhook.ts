import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@bo/platform/testing/database';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';
import { startDistributed } from '../deploy/embedded/src/distributed';
import { fixedRate, type FixedRateRequest } from './fixed-rate';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, the chat's price answers (issue 21): every service its own process (the
 * distributed topology), ManyChat's requests played at 200 a second through the gateway to POST
 * /api/manychat/webhook with the chat flow's secret, each a price question (English and
 * Mongolian, Cyrillic and Latin) from one of 50 subscribers. Each answer stores the message, the
 * reply and a Buy link per product (one statement), and tells notifications the subscriber wrote
 * at their first message. The load is open (bench/fixed-rate.ts): Poisson arrivals averaging 200
 * a second, each request's latency counted from when it was due. The target (p99 under 25 ms, no
 * errors) is printed beside the figures, not asserted.
 */

const RATE = 200;
const DURATION_S = scaled(20, 3);
const WARMUP_S = scaled(3, 1);
const TARGET_P99_MS = 25;
const QUESTIONS = ['how much is netflix premium 3 months', 'нетфликс премиум 6 сар үнэ хэд вэ', 'spotify 1 sar une hed ve', 'pubg 660 uc price', 'youtube premium хэд вэ'];
const SUBSCRIBERS = 50;

async function main(): Promise<void> {
  console.log(modeLine());
  const database = await createTestDatabase('bench_chat_webhook');
  const vhost = await createTestVhost('bench_chat_webhook');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-chat-webhook-'));
  const system = await startDistributed({ databaseUrl: database.url, amqpUrl: vhost.url, redisUrl: 'redis://127.0.0.1:6379/9', port: 0, freeServicePorts: true, simulatorBasePort: 0, dataDir, quiet: true });
  try {
    // The launcher gave the ManyChat simulator's chat step the flow's secret: the bench sends what ManyChat would.
    const flow = (await (await fetch(`${system.simulators.urls.manychat}/__sim/options`)).json()) as { webhookHeaders: Record<string, string> };
    const headers = { 'content-type': 'application/json', ...flow.webhookHeaders };
    const requests = Array.from({ length: SUBSCRIBERS }, (_, n): FixedRateRequest => ({
      method: 'POST',
      path: '/api/manychat/webhook',
      headers,
      body: JSON.stringify({ text: QUESTIONS[n % QUESTIONS.length], user_id: String(7_500_000 + n), first_name: 'Bench' }),
    }));
    const first = await fetch(`${system.url}/api/manychat/webhook`, { method: 'POST', headers, body: requests[0].body });
    const answer = (await first.json()) as { content?: { messages?: { text: string }[] } };
    if (!first.ok || !answer.content?.messages?.[0]?.text.includes('₮')) throw new Error(`the webhook did not answer a price: ${first.status} ${JSON.stringify(answer)}`);

    // One at a time first: what a single answer costs with nothing else going on.
    const single: number[] = [];
    for (let n = 0; n < scaled(100, 10); n++) {
      const started = performance.now();
      await (await fetch(`${system.url}/api/manychat/webhook`, { method: 'POST', headers, body: requests[n % SUBSCRIBERS].body })).text();
      single.push(performance.now() - started);
    }
    single.sort((a, b) => a - b);
    console.log(`one at a time: p50 ${single[Math.floor(single.length / 2)].toFixed(1)} ms, max ${single[single.length - 1].toFixed(1)} ms`);

    const run = (durationS: number) => fixedRate({ url: system.url, rate: RATE, durationS, requests });
    await run(WARMUP_S);
    const result = await run(DURATION_S);
    const { latency } = result;
    console.log(`POST /api/manychat/webhook through the gateway, Poisson arrivals at ${RATE} a second for ${DURATION_S} s: ${result.answered} of ${result.sent} answered, ${result.errors} errors`);
    console.log(`  latency from when each was due: p50 ${latency.p50} ms, p90 ${latency.p90} ms, p99 ${latency.p99} ms, max ${latency.max} ms`);
    console.log(`  target: p99 < ${TARGET_P99_MS} ms with no errors: ${latency.p99 < TARGET_P99_MS && result.errors === 0 ? 'met' : 'NOT met'}`);
  } finally {
    await system.stop();
    await rm(dataDir, { recursive: true, force: true });
    await vhost.delete();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
