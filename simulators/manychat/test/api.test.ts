import { listen } from '@bo/sim-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildManyChatSimulator } from '../src/app';

const sim = buildManyChatSimulator();
let base = '';
const auth = { authorization: `Bearer ${sim.state.apiKey}`, 'content-type': 'application/json' };

async function get(path: string, headers: Record<string, string> = auth) {
  const response = await fetch(base + path, { headers });
  return { status: response.status, body: (await response.json()) as any };
}
async function post(path: string, body: unknown, headers: Record<string, string> = auth) {
  const response = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}
const control = (path: string, body: unknown) => post(`/__sim/${path}`, body, { 'content-type': 'application/json' });

const text = (t: string) => ({ version: 'v2', content: { messages: [{ type: 'text', text: t }] } });
const INSIDE = '9000001'; // last interaction 1 h ago
const OUTSIDE = '9000002'; // 30 h ago
const LONG_AGO = '9000003'; // 10 days ago

beforeAll(async () => {
  base = await listen(sim.app);
});
afterAll(() => sim.app.close());
beforeEach(() => control('reset', {}));

describe('auth and page endpoints', () => {
  it('answers 401 without or with a wrong bearer token', async () => {
    expect((await get('/fb/page/getInfo', {})).status).toBe(401);
    const wrong = await get('/fb/page/getInfo', { authorization: `Bearer ${sim.state.options.pageId}:nope` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.status).toBe('error');
  });

  it('serves page info, flows, tags and custom fields in the success envelope', async () => {
    const info = await get('/fb/page/getInfo');
    expect(info.body).toMatchObject({ status: 'success', data: { id: '1000001', name: 'Stream Keys Shop', is_pro: true } });
    const flows = await get('/fb/page/getFlows');
    expect(flows.body.data.flows[0]).toEqual({ ns: 'content20240101000000_000001', name: 'Welcome', folder_id: 0 });
    expect(flows.body.data.folders).toEqual([{ id: 1, name: 'Sales' }]);
    expect((await get('/fb/page/getTags')).body.data).toContainEqual({ id: 2, name: 'netflix' });
    expect((await get('/fb/page/getCustomFields')).body.data).toContainEqual({ id: 12, name: 'last_order_amount', type: 'number', description: 'MNT' });
  });
});

describe('subscriber endpoints', () => {
  it('getInfo returns the subscriber with typed fields and tags; unknown id is a 400 error', async () => {
    const { body } = await get(`/fb/subscriber/getInfo?subscriber_id=${INSIDE}`);
    expect(body.data).toMatchObject({ id: INSIDE, page_id: '1000001', name: 'Bat Erdene', email: 'bat@example.com' });
    expect(body.data.custom_fields).toContainEqual({ id: 12, name: 'last_order_amount', type: 'number', description: 'MNT', value: 35000 });
    expect(body.data.tags.map((t: { name: string }) => t.name)).toEqual(['customer', 'netflix']);
    const missing = await get('/fb/subscriber/getInfo?subscriber_id=123');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'error', message: 'Subscriber does not exist' });
  });

  it('ids can be numbers in responses when that variant is chosen', async () => {
    await control('options', { subscriberIdAs: 'number' });
    expect((await get(`/fb/subscriber/getInfo?subscriber_id=${INSIDE}`)).body.data.id).toBe(9000001);
  });

  it('finds by custom field (text and number only), by system field and by name', async () => {
    const byText = await get('/fb/subscriber/findByCustomField?field_id=11&field_value=saraa@example.com');
    expect(byText.body.data.map((s: { id: string }) => s.id)).toEqual([OUTSIDE]);
    const byNumber = await get('/fb/subscriber/findByCustomField?field_id=12&field_value=35000');
    expect(byNumber.body.data.map((s: { id: string }) => s.id)).toEqual([INSIDE]);
    const byDate = await get('/fb/subscriber/findByCustomField?field_id=13&field_value=2024-12-31');
    expect(byDate.status).toBe(400);
    expect((await get('/fb/subscriber/findBySystemField?email=BAT@example.com')).body.data.id).toBe(INSIDE);
    expect((await get('/fb/subscriber/findBySystemField?phone=%2B97699112233')).body.data.id).toBe(INSIDE);
    expect((await get('/fb/subscriber/findBySystemField?email=a@b.c&phone=1')).status).toBe(400);
    expect((await get('/fb/subscriber/findByName?name=saraa%20dorj')).body.data.map((s: { id: string }) => s.id)).toEqual([OUTSIDE]);
  });

  it('caps search results at 100', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ id: String(7000000 + i), first_name: 'Same', last_name: 'Name' }));
    await control('subscribers', many);
    expect((await get('/fb/subscriber/findByName?name=Same%20Name')).body.data).toHaveLength(100);
  });

  it('sets custom fields by id, by name and in bulk, checking value types and the 20-field limit', async () => {
    expect((await post('/fb/subscriber/setCustomField', { subscriber_id: Number(INSIDE), field_id: 12, field_value: 50000 })).body).toEqual({ status: 'success' });
    expect((await post('/fb/subscriber/setCustomFieldByName', { subscriber_id: INSIDE, field_name: 'expires_on', field_value: '2025-01-31' })).body.status).toBe('success');
    const wrongType = await post('/fb/subscriber/setCustomFieldByName', { subscriber_id: INSIDE, field_name: 'last_order_amount', field_value: 'many' });
    expect(wrongType.status).toBe(400);
    const bulk = await post('/fb/subscriber/setCustomFields', {
      subscriber_id: INSIDE,
      fields: [
        { field_id: 15, field_value: false },
        { field_name: 'paid_at', field_value: '2025-01-02T03:04:05Z' },
      ],
    });
    expect(bulk.body.status).toBe('success');
    const tooMany = await post('/fb/subscriber/setCustomFields', { subscriber_id: INSIDE, fields: Array.from({ length: 21 }, () => ({ field_id: 11, field_value: 'x' })) });
    expect(tooMany.status).toBe(400);
    const fields = (await get(`/fb/subscriber/getInfo?subscriber_id=${INSIDE}`)).body.data.custom_fields;
    const value = (name: string) => fields.find((f: { name: string }) => f.name === name).value;
    expect([value('last_order_amount'), value('expires_on'), value('is_subscribed'), value('paid_at')]).toEqual([50000, '2025-01-31', false, '2025-01-02T03:04:05Z']);
  });

  it('adds and removes tags by id and by name; unknown tags are refused', async () => {
    await post('/fb/subscriber/addTag', { subscriber_id: LONG_AGO, tag_id: 3 });
    await post('/fb/subscriber/addTagByName', { subscriber_id: LONG_AGO, tag_name: 'netflix' });
    await post('/fb/subscriber/removeTagByName', { subscriber_id: INSIDE, tag_name: 'customer' });
    await post('/fb/subscriber/removeTag', { subscriber_id: INSIDE, tag_id: 2 });
    expect((await post('/fb/subscriber/addTagByName', { subscriber_id: INSIDE, tag_name: 'ghost' })).status).toBe(400);
    const names = async (id: string) => (await get(`/fb/subscriber/getInfo?subscriber_id=${id}`)).body.data.tags.map((t: { name: string }) => t.name);
    expect(await names(LONG_AGO)).toEqual(['netflix', 'vip']);
    expect(await names(INSIDE)).toEqual([]);
  });
});

describe('sending', () => {
  it('delivers content inside the 24 h window and records it', async () => {
    const sent = await post('/fb/sending/sendContent', { subscriber_id: INSIDE, data: text('Your key is ready') });
    expect(sent.body).toEqual({ status: 'success' });
    const { body } = await get(`/__sim/messages?subscriberId=${INSIDE}`, {});
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]).toMatchObject({ subscriberId: INSIDE, source: 'sendContent', messageTag: null, content: { messages: [{ type: 'text', text: 'Your key is ready' }] } });
  });

  it('refuses content outside the window with code 3011, and the tags Meta deprecated with Graph error 100, inside the window too', async () => {
    const refused = await post('/fb/sending/sendContent', { subscriber_id: OUTSIDE, data: text('Renew now') });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'error', code: 3011 });
    expect(refused.body.message).toContain('24h');
    for (const tag of ['ACCOUNT_UPDATE', 'POST_PURCHASE_UPDATE', 'CONFIRMED_EVENT_UPDATE']) {
      for (const subscriber_id of [OUTSIDE, INSIDE]) {
        const deprecated = await post('/fb/sending/sendContent', { subscriber_id, data: text('Your plan ends soon'), message_tag: tag });
        expect(deprecated.status).toBe(400);
        expect(deprecated.body).toMatchObject({ status: 'error', code: 100, message: `(#100) Message tag ${tag} is deprecated for Messenger since 2026-04-27` });
      }
    }
    expect((await post('/fb/sending/sendContent', { subscriber_id: OUTSIDE, data: text('x'), message_tag: 'PROMO' })).status).toBe(400);
    expect(sim.state.messages).toEqual([]);
  });

  it('sends an approved utility template in or out of the window, filled with its variables, and records it', async () => {
    const send = (body: Record<string, unknown>) => post('/fb/sending/sendTemplate', { subscriber_id: LONG_AGO, ...body });
    const unknown = await send({ template_name: 'renewal_notice', variables: { key: 'SK-1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ status: 'error', message: 'Template not found or not approved', details: { messages: ['"renewal_notice" is not an approved utility template of this page'] } });
    expect((await control('templates', { name: 'Renewal Notice' })).status).toBe(400);
    expect((await control('templates', [{ name: 'renewal_notice', variables: ['key', 'renewal_url'] }])).body.templates).toContainEqual({ name: 'renewal_notice', variables: ['key', 'renewal_url'] });
    const incomplete = await send({ template_name: 'renewal_notice', variables: { key: 'SK-1', extra: ' ' } });
    expect(incomplete.body.details.messages).toEqual(['variables.renewal_url is required by "renewal_notice"', 'variables.extra must not be empty']);
    expect((await send({ template_name: 'renewal_notice', variables: { key: 1 } })).body.details.messages).toEqual(['variables must be an object of texts']);
    expect((await send({ variables: {} })).body.details.messages).toEqual(['template_name is required']);
    const sent = await send({ template_name: 'renewal_notice', variables: { key: 'SK-1', renewal_url: 'https://shop.mn/r/1' } });
    expect(sent.body).toEqual({ status: 'success' });
    expect(sim.state.messages).toMatchObject([
      { subscriberId: LONG_AGO, source: 'sendTemplate', templateName: 'renewal_notice', messageTag: null, content: { template_name: 'renewal_notice', variables: { key: 'SK-1', renewal_url: 'https://shop.mn/r/1' } } },
    ]);
    // The default seed approves one template per message kind of the shop; a reset brings them back.
    expect((await get('/__sim/templates', {})).body.templates.map((t: { name: string }) => t.name)).toEqual(['key_delivery', 'payment_confirmation', 'renewal_reminder', 'key_extension', 'alert', 'renewal_notice']);
    await control('reset', {});
    expect((await get('/__sim/templates', {})).body.templates).toHaveLength(5);
  });

  it('HUMAN_AGENT opens 7 days, or acts as a plain tag when that variant is chosen', async () => {
    expect((await post('/fb/sending/sendContent', { subscriber_id: OUTSIDE, data: text('hi'), message_tag: 'HUMAN_AGENT' })).body.status).toBe('success');
    expect((await post('/fb/sending/sendContent', { subscriber_id: LONG_AGO, data: text('hi'), message_tag: 'HUMAN_AGENT' })).body.code).toBe(3011);
    await control('options', { humanAgentWindowDays: 0 });
    expect((await post('/fb/sending/sendContent', { subscriber_id: LONG_AGO, data: text('hi'), message_tag: 'HUMAN_AGENT' })).body.status).toBe('success');
  });

  it('validates the Dynamic Block: version, limits, known types, content.type per channel', async () => {
    const block = {
      version: 'v1',
      content: {
        messages: Array.from({ length: 11 }, () => ({ type: 'text', text: 'x' })).concat([{ type: 'gif', text: 'x' } as never]),
        quick_replies: Array.from({ length: 12 }, () => ({ type: 'flow', caption: 'Go', target: 'content20240101000000_000001' })),
        actions: Array.from({ length: 6 }, () => ({ action: 'add_tag', tag_name: 'vip' })),
      },
    };
    const { status, body } = await post('/fb/sending/sendContent', { subscriber_id: INSIDE, data: block });
    expect(status).toBe(400);
    const messages: string[] = body.details.messages;
    for (const expected of ['version must be "v2"', '12 messages; the limit is 10', '12 entries; the limit is 11', '6 actions; the limit is 5', '"gif" is not a known message type'])
      expect(messages.some((m) => m.includes(expected)), expected).toBe(true);
    const instagram = await post('/fb/sending/sendContent', { subscriber_id: '9000004', data: text('hi') });
    expect(instagram.body.details.messages[0]).toContain('content.type must be "instagram"');
    const fixed = { version: 'v2', content: { type: 'instagram', messages: [{ type: 'text', text: 'hi' }] } };
    expect((await post('/fb/sending/sendContent', { subscriber_id: '9000004', data: fixed })).body.status).toBe('success');
    expect(sim.state.messages).toHaveLength(1);
  });

  it('sendFlow needs a known flow and caps sends per subscriber per hour', async () => {
    await control('options', { sendFlowPerSubscriberPerHour: 2 });
    const flow = { subscriber_id: INSIDE, flow_ns: 'content20240101000000_000002' };
    expect((await post('/fb/sending/sendFlow', flow)).body).toEqual({ status: 'success' });
    expect((await post('/fb/sending/sendFlow', flow)).body.status).toBe('success');
    const capped = await post('/fb/sending/sendFlow', flow);
    expect(capped.status).toBe(400);
    expect(capped.body.code).toBeUndefined();
    expect((await post('/fb/sending/sendFlow', { subscriber_id: OUTSIDE, flow_ns: 'nope' })).body.message).toBe('Flow not found');
    expect(sim.state.messages.filter((m) => m.source === 'sendFlow')).toHaveLength(2);
  });

  it('sendContentByUserRef delivers to a known user_ref only', async () => {
    expect((await post('/fb/sending/sendContentByUserRef', { user_ref: 'ref-saraa-1', data: text('Thanks') })).body.status).toBe('success');
    expect((await post('/fb/sending/sendContentByUserRef', { user_ref: 'ref-none', data: text('Thanks') })).status).toBe(400);
    expect(sim.state.messages[0]).toMatchObject({ userRef: 'ref-saraa-1', source: 'sendContentByUserRef' });
  });
});

describe('rate limits and error variants', () => {
  it('answers over-limit requests with the configured answer', async () => {
    await control('options', { rateLimits: { '/fb/page/getFlows': 3 }, rateLimitAnswer: { status: 429, body: { status: 'error', message: 'slow down' } } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/fb/page/getFlows')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await get('/fb/page/getFlows')).body).toEqual({ status: 'error', message: 'slow down' });
    expect((await get('/fb/page/getTags')).status).toBe(200);
  });

  it('can answer errors with HTTP 200 and status "error"', async () => {
    await control('options', { errorHttpStatus: 200 });
    const refused = await post('/fb/sending/sendContent', { subscriber_id: OUTSIDE, data: text('Renew now') });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'error', code: 3011 });
  });

  it('injects kit faults such as 5xx on the imitated paths only', async () => {
    await control('faults', { kind: 'status', status: 502, pathPrefix: '/fb/sending', times: 1 });
    expect((await post('/fb/sending/sendContent', { subscriber_id: INSIDE, data: text('a') })).status).toBe(502);
    expect((await post('/fb/sending/sendContent', { subscriber_id: INSIDE, data: text('a') })).status).toBe(200);
  });
});
