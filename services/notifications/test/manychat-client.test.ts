import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { OutsideSystem, RedisOutsideRateLimit } from '@bo/platform/outside';
import { outsideSystemForTest } from '@bo/platform/testing/outside';
import { RedisCache } from '@bo/platform/cache';
import { ManyChatClient, ManyChatError, manyChatSystem, SENDS_PER_SECOND } from '../src/clients/manychat';
import { SIMULATOR_MANYCHAT_TOKEN } from '../src/service';
import { dynamicBlock } from '@bo/proto';

const textBlock = (text: string) => dynamicBlock([{ text }]);

const HOUR = 3_600_000;

/** A client as the service builds it: ManyChat's outside system at `url`, short back-offs for the test. */
const clientAt = (url: string, timeoutMs: number, token = SIMULATOR_MANYCHAT_TOKEN) => {
  const system = manyChatSystem({ baseUrl: url, timeoutMs });
  return new ManyChatClient(outsideSystemForTest({ ...system, retry: { ...system.retry, baseDelayMs: 10 } }), token);
};

describe('ManyChat client against the ManyChat simulator', () => {
  const sim = buildManyChatSimulator();
  let url: string;
  let client: ManyChatClient;
  const sends = () => sim.journal.list().filter((entry) => entry.url.startsWith('/fb/sending/sendContent'));

  beforeAll(async () => {
    url = await listen(sim.app);
  });
  afterAll(() => sim.app.close());
  beforeEach(() => {
    // Each test with a closed breaker; 2 s, so a loaded CI machine is not taken for a slow ManyChat.
    client = clientAt(`${url}/`, 2_000);
    sim.state.reset();
    sim.faults.clear();
    sim.journal.clear();
    sim.state.upsertSubscriber({ id: '7100001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    sim.state.upsertSubscriber({ id: '7100002', last_interaction: new Date(Date.now() - 30 * HOUR).toISOString() });
  });

  it('sends a text block inside the 24-hour window without a tag, and reads the page name', async () => {
    await client.sendContent('7100001', textBlock('Сайн байна уу / Hello'));
    expect(sim.state.messages).toMatchObject([{ subscriberId: '7100001', messageTag: null, content: { messages: [{ type: 'text', text: 'Сайн байна уу / Hello' }] } }]);
    expect(await client.getInfo()).toEqual({ id: '1000001', name: 'Stream Keys Shop' });
  });

  it('reports 3011 outside the window, and sends an approved utility template there with its variables', async () => {
    const refused = await client.sendContent('7100002', textBlock('late')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ManyChatError);
    expect(refused).toMatchObject({ status: 400, code: 3011, outsideWindow: true, retryable: false });
    const unapproved = await client.sendTemplate('7100002', 'key_ready', { key: 'SK-1' }).catch((error: unknown) => error);
    expect(unapproved).toMatchObject({ status: 400, retryable: false, message: 'ManyChat answered 400: Template not found or not approved — "key_ready" is not an approved utility template of this page' });
    sim.state.templates.set('key_ready', { name: 'key_ready', variables: ['key'] });
    await client.sendTemplate('7100002', 'key_ready', { key: 'SK-1' });
    expect(sim.state.messages).toMatchObject([{ subscriberId: '7100002', source: 'sendTemplate', templateName: 'key_ready', messageTag: null, content: { template_name: 'key_ready', variables: { key: 'SK-1' } } }]);
    expect(sim.journal.list().filter((entry) => entry.url.startsWith('/fb/sending/sendTemplate')).map((entry) => entry.status)).toEqual([200, 400]);
  });

  it('treats HTTP 200 with "status":"error" as a failure', async () => {
    await sim.app.inject({ method: 'POST', url: '/__sim/options', payload: { errorHttpStatus: 200 } });
    const refused = await client.sendContent('7100002', textBlock('late')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 200, code: 3011 });
    expect((refused as Error).message).toContain('last interaction was over 24h ago');
    const unknown = await client.sendContent('7999999', textBlock('nobody')).catch((error: unknown) => error);
    expect((unknown as Error).message).toBe('ManyChat refused: Subscriber does not exist — Subscriber with id 7999999 does not exist');
    expect(sim.state.messages).toEqual([]);
  });

  it('sends again only what ManyChat did not take (429s); a server error or a timeout is left to a later try of the delivery', async () => {
    sim.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 429, times: 2 });
    await client.sendContent('7100001', textBlock('after two 429s'));
    expect(sends().map((entry) => entry.status).reverse()).toEqual([429, 429, 200]); // the journal lists newest first
    expect(sim.state.messages).toHaveLength(1);

    sim.journal.clear();
    sim.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 503, times: 1 });
    const failed = await client.sendContent('7100001', textBlock('maybe taken')).catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 503, retryable: true });
    expect(sends()).toHaveLength(1); // a send may have reached the person: not repeated here

    sim.journal.clear();
    sim.faults.clear();
    sim.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'slow', delayMs: 1_000, times: 3 });
    const slow = await clientAt(`${url}/`, 300).sendContent('7100001', textBlock('never')).catch((error: unknown) => error);
    expect(slow).toMatchObject({ status: 0, retryable: true, message: 'ManyChat did not answer within 300 ms' });
    expect(sim.faults.list()[0].fired).toBe(1);

    // A read is safe to repeat: a 502 page is tried again, twice.
    sim.faults.clear();
    sim.journal.clear();
    sim.faults.add({ pathPrefix: '/fb/page/getInfo', kind: 'html', status: 502 });
    const down = await client.getInfo().catch((error: unknown) => error);
    expect(down).toMatchObject({ status: 502, retryable: true });
    expect(sim.journal.list().filter((entry) => entry.url.startsWith('/fb/page/getInfo'))).toHaveLength(3);
  });

  it(`paces sendContent at ${SENDS_PER_SECOND} a second per page across processes: ManyChat never answers 429 and every message arrives`, async () => {
    // Two processes, each its own Redis connection and outside system, sending one message after another.
    const caches = [RedisCache.connect('redis://127.0.0.1:6379', 'pace-a:'), RedisCache.connect('redis://127.0.0.1:6379', 'pace-b:')];
    const pageId = String(9_000_000 + Math.floor(Math.random() * 999_999)); // a page of its own: no other test shares its pace
    const token = `${pageId}:pace-test`;
    expect((await sim.app.inject({ method: 'POST', url: '/__sim/options', payload: { pageId, apiSecret: 'pace-test' } })).statusCode).toBe(200);
    try {
      const clients = caches.map((cache) => new ManyChatClient(new OutsideSystem({ ...manyChatSystem({ baseUrl: url, timeoutMs: 2_000 }), paces: new RedisOutsideRateLimit(cache.redis) }), token));
      const started = Date.now();
      await Promise.all(clients.map(async (one, n) => {
        for (let i = 0; i < 40; i++) await one.sendContent('7100001', textBlock(`process ${n} message ${i}`));
      }));
      const elapsed = Date.now() - started;
      expect(sim.state.messages).toHaveLength(80);
      expect(sends().every((entry) => entry.status === 200)).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual((79 * 1000) / SENDS_PER_SECOND - 50);
    } finally {
      const [defaultPage, defaultSecret] = SIMULATOR_MANYCHAT_TOKEN.split(':');
      await sim.app.inject({ method: 'POST', url: '/__sim/options', payload: { pageId: defaultPage, apiSecret: defaultSecret } });
      for (const cache of caches) await cache.close();
    }
  });

  it('fails at once on a refused token (401) and on a bad request, without retrying', async () => {
    const wrong = clientAt(url, 300, '1000001:not-the-secret');
    const refused = await wrong.sendContent('7100001', textBlock('x')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, retryable: false, message: 'ManyChat refused the API token (401): Access denied: wrong or missing API token' });
    const bad = await client.sendContent('7100001', { version: 'v2', content: { messages: [{ type: 'text', text: '' }] } }).catch((error: unknown) => error);
    expect(bad).toMatchObject({ status: 400, retryable: false });
    expect((bad as Error).message).toContain('content.messages[0].text must be a non-empty string');
    expect(sends()).toHaveLength(2);
    const notDigits = await client.sendContent('user-1', textBlock('x')).catch((error: unknown) => error);
    expect(notDigits).toMatchObject({ status: 400, message: '"user-1" is not a ManyChat subscriber id (digits only)' });
    expect(sends()).toHaveLength(2); // never sent
  });

  it('stops a send when its caller gives up, with no further try, and says how long a send may take', async () => {
    const patient = clientAt(url, 5_000);
    // Three tries of 5 s, two waits of at most 2 s (a Retry-After ManyChat may ask), at most a second's wait for the page's pace.
    expect(patient.sendDeadlineMs).toBe(3 * 5_000 + 2 * 2_000 + 1_000);
    // ManyChat holds its answer until after the caller gave up: the send did not wait for it.
    const held = sim.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'hold' });
    const stopped = await patient.sendContent('7100001', textBlock('late'), AbortSignal.timeout(200)).catch((error: unknown) => error);
    expect(stopped).toMatchObject({ name: 'ManyChatError', message: expect.stringContaining('abandoned') });
    await vi.waitFor(() => expect(sim.faults.held().map((request) => request.clientGone)).toEqual([true])); // it hung up on its try
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.faults.list()[0].fired).toBe(1); // one try, no retry after the caller gave up
    sim.faults.release(held.id);
  });
});
