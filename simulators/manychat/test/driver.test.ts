import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '@bo/sim-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildManyChatSimulator, driveWebhook, FULL_SUBSCRIBER_DATA } from '../src/app';

/** Plays our webhook: each test sets how it answers; every request it gets is kept. */
let answer: (req: IncomingMessage, res: ServerResponse) => void = () => {};
const received: { headers: IncomingMessage['headers']; body: any }[] = [];
const webhook = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: JSON.parse(raw) });
    answer(req, res);
  });
});
const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const sim = buildManyChatSimulator();
const state = sim.state;
let simUrl = '';
let webhookUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/api/manychat/webhook`;
  simUrl = await listen(sim.app);
});
afterAll(async () => {
  webhook.closeAllConnections();
  webhook.close();
  await sim.app.close();
});
beforeEach(() => {
  state.reset();
  state.options.webhookUrl = webhookUrl;
  received.length = 0;
});

describe('chat-platform driver', () => {
  it('posts the templated body with configured headers and delivers a good reply', async () => {
    answer = (_req, res) => json(res, 200, { version: 'v2', content: { messages: [{ type: 'text', text: 'Netflix costs 15000₮' }] } });
    const exchange = await driveWebhook(state, { subscriberId: '9000001', text: 'Netflix "price"?', headers: { 'x-webhook-secret': 's3' } });
    expect(received[0].body).toEqual({ user_id: '9000001', text: 'Netflix "price"?', first_name: 'Bat' });
    expect(received[0].headers['x-webhook-secret']).toBe('s3');
    expect(exchange).toMatchObject({ outcome: 'delivered', status: 200, violations: [] });
    expect(state.messages[0]).toMatchObject({ source: 'webhook', subscriberId: '9000001', content: { messages: [{ text: 'Netflix costs 15000₮' }] } });
    expect(state.subscribers.get('9000001')!.last_input_text).toBe('Netflix "price"?');
  });

  it('can send full subscriber data', async () => {
    answer = (_req, res) => json(res, 200, { version: 'v2', content: { messages: [] } });
    await driveWebhook(state, { subscriberId: '9000002', text: 'hello', bodyTemplate: FULL_SUBSCRIBER_DATA });
    expect(received[0].body).toMatchObject({ id: '9000002', key: 'user:9000002', first_name: 'Saraa', last_input_text: 'hello', custom_fields: { email: 'saraa@example.com', expires_on: '2024-12-31' } });
  });

  it('aborts a reply slower than the timeout and delivers nothing', async () => {
    // Our webhook holds its reply until the driver has given up: the driver did not wait for it.
    let reply!: () => void;
    const aborted = new Promise<boolean>((resolve) => {
      answer = (_req, res) => {
        res.once('close', () => resolve(!res.writableEnded));
        reply = () => json(res, 200, { version: 'v2', content: { messages: [{ type: 'text', text: 'too late' }] } });
      };
    });
    const exchange = await driveWebhook(state, { subscriberId: '9000001', text: 'slow', timeoutMs: 300 });
    expect(exchange.outcome).toBe('failed');
    expect(exchange.failure).toBe('no answer within 300 ms');
    expect(await aborted).toBe(true); // the driver closed the connection before our reply was sent
    reply();
    expect(state.messages).toHaveLength(0);
  });

  it('treats invalid JSON and non-2xx answers as failed steps', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"v2",');
    expect((await driveWebhook(state, { subscriberId: '9000001', text: 'a' })).failure).toBe('reply is not valid JSON');
    answer = (_req, res) => json(res, 500, { error: 'boom' });
    expect((await driveWebhook(state, { subscriberId: '9000001', text: 'a' })).failure).toBe('HTTP 500');
    expect(state.messages).toHaveLength(0);
  });

  it('reports every Dynamic Block violation of a reply breaking the limits', async () => {
    answer = (_req, res) =>
      json(res, 200, {
        version: 'v2',
        content: {
          messages: [{ type: 'text', text: 'hi', buttons: [1, 2, 3, 4].map((i) => ({ type: 'url', caption: `b${i}`, url: 'https://x.test' })) }],
          quick_replies: Array.from({ length: 12 }, () => ({ type: 'node', caption: 'n', target: 'Start' })),
          actions: [{ action: 'add_tag', tag_name: 'ghost' }, { action: 'set_field_value', field_name: 'last_order_amount', value: 'ten' }],
        },
      });
    const exchange = await driveWebhook(state, { subscriberId: '9000001', text: 'a' });
    expect(exchange.outcome).toBe('failed');
    expect(exchange.violations).toEqual([
      'content.messages[0].buttons has 4 buttons; the limit is 3',
      'content.actions[0]: tag "ghost" does not exist in the bot',
      'content.actions[1]: Value "ten" does not fit the number field "last_order_amount"',
      'content.quick_replies has 12 entries; the limit is 11',
    ]);
    expect(state.subscribers.get('9000001')!.tagIds).toEqual([1, 2]);
  });

  it('applies returned actions to the subscriber', async () => {
    answer = (_req, res) =>
      json(res, 200, {
        version: 'v2',
        content: {
          messages: [{ type: 'text', text: 'Saved' }],
          actions: [
            { action: 'add_tag', tag_name: 'vip' },
            { action: 'remove_tag', tag_name: 'netflix' },
            { action: 'set_field_value', field_name: 'ai_reply', value: 'Saved' },
            { action: 'unset_field_value', field_name: 'email' },
          ],
        },
      });
    const exchange = await driveWebhook(state, { subscriberId: '9000001', text: 'a' });
    expect(exchange.appliedActions.map((a) => a.action)).toEqual(['add_tag', 'remove_tag', 'set_field_value', 'unset_field_value']);
    const subscriber = state.subscribers.get('9000001')!;
    expect(subscriber.tagIds).toEqual([1, 3]);
    expect(subscriber.fields[16]).toBe('Saved');
    expect(subscriber.fields[11]).toBeNull();
  });

  it('works over HTTP at /__sim/driver/send and shows on the page', async () => {
    answer = (_req, res) => json(res, 200, { version: 'v2', content: { messages: [{ type: 'text', text: 'from webhook' }] } });
    const response = await fetch(`${simUrl}/__sim/driver/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscriberId: '9000001', text: 'page test', timeoutMs: 5000 }),
    });
    expect(((await response.json()) as { outcome: string }).outcome).toBe('delivered');
    const page = await (await fetch(`${simUrl}/__sim/`)).text();
    expect(page).toContain('page test');
    expect(page).toContain('from webhook');
    expect(page).toContain('Send as subscriber');
  });
});
