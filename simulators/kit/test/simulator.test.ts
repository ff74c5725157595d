import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { actionButton, createSimulator, htmlTable, listen } from '../src';

const sim = createSimulator({ title: 'Test API' });
let resets = 0;
sim.app.get('/thing', async () => ({ ok: true }));
sim.app.post('/thing', async () => ({ created: true }));
sim.onReset(() => {
  resets += 1;
});
sim.addPageSections(() => [{ title: 'Things', html: htmlTable([{ name: '<script>x</script>', n: 1 }], ['name', 'n']) + actionButton('Do it', '/__sim/reset') }]);
let url: string;

const control = (path: string, method = 'GET', body?: unknown) =>
  fetch(`${url}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
const addFault = (rule: unknown) => control('/__sim/faults', 'POST', rule);

beforeAll(async () => {
  url = await listen(sim.app);
});
afterAll(() => sim.app.close());
beforeEach(async () => {
  await control('/__sim/reset', 'POST', {});
});

describe('faults', () => {
  it('answers a status fault `times` times, then the real handler again', async () => {
    const added = (await (await addFault({ kind: 'status', status: 503, pathPrefix: '/thing', times: 2, body: { error: 'down' } })).json()) as { faults: { id: number }[] };
    expect(added.faults).toHaveLength(1);
    const first = await fetch(`${url}/thing`);
    expect([first.status, await first.json()]).toEqual([503, { error: 'down' }]);
    expect((await fetch(`${url}/thing`)).status).toBe(503);
    expect((await fetch(`${url}/thing`)).status).toBe(200);
    expect(((await (await control('/__sim/faults')).json()) as { faults: unknown[] }).faults).toEqual([]);
  });

  it('matches on method and path prefix, and never touches /__sim/', async () => {
    await addFault({ kind: 'status', status: 500, method: 'post' });
    expect((await fetch(`${url}/thing`)).status).toBe(200);
    expect((await fetch(`${url}/thing`, { method: 'POST' })).status).toBe(500);
    await addFault({ kind: 'status', status: 500, pathPrefix: '/__sim' });
    expect((await control('/__sim/health')).status).toBe(200);
  });

  it('holds a slow answer for delayMs, then answers normally', async () => {
    await addFault({ kind: 'slow', delayMs: 300, times: 1 });
    const started = Date.now();
    const answer = await fetch(`${url}/thing`);
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('holds an answer until the rule is released, lists it meanwhile, and says when its client gave up', async () => {
    const { faults: [rule] } = (await (await addFault({ kind: 'hold', pathPrefix: '/thing', times: 2 })).json()) as { faults: { id: number }[] };
    const held = async () => ((await (await control('/__sim/held')).json()) as { held: { rule: number; url: string; clientGone: boolean }[] }).held;
    let answered = false;
    const waiting = fetch(`${url}/thing?n=1`).then((response) => {
      answered = true;
      return response;
    });
    const impatient = new AbortController();
    const gaveUp = fetch(`${url}/thing?n=2`, { signal: impatient.signal }).catch((error: unknown) => error);
    await expect.poll(held).toHaveLength(2);
    impatient.abort();
    expect(await gaveUp).toBeInstanceOf(Error);
    await expect.poll(async () => (await held()).map((request) => [request.rule, request.url, request.clientGone]).sort()).toEqual([
      [rule.id, '/thing?n=1', false],
      [rule.id, '/thing?n=2', true],
    ]);
    expect(answered).toBe(false);
    expect(await (await control('/__sim/faults/release', 'POST', { id: rule.id })).json()).toEqual({ released: 2 });
    expect((await waiting).status).toBe(200);
    expect(await held()).toEqual([]);
    // Released: the rule is gone, the next request is answered at once.
    expect((await fetch(`${url}/thing`)).status).toBe(200);
  });

  it('releases held answers on a reset, and matches a rule on query parameters', async () => {
    await addFault({ kind: 'hold', pathPrefix: '/thing', query: { page: '3' } });
    expect((await fetch(`${url}/thing?page=2`)).status).toBe(200);
    const third = fetch(`${url}/thing?page=3&sort=new`);
    await expect.poll(async () => ((await (await control('/__sim/held')).json()) as { held: unknown[] }).held).toHaveLength(1);
    await control('/__sim/reset', 'POST', {});
    expect((await third).status).toBe(200);
  });

  it('drops the connection', async () => {
    await addFault({ kind: 'drop', times: 1 });
    await expect(fetch(`${url}/thing`)).rejects.toThrow();
    expect((await fetch(`${url}/thing`)).status).toBe(200);
  });

  it('answers a proxy-style HTML page', async () => {
    await addFault({ kind: 'html', status: 502 });
    const answer = await fetch(`${url}/thing`);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(await answer.text()).toContain('502 Bad Gateway');
  });

  it('lists and clears rules, and refuses an invalid one', async () => {
    await addFault([{ kind: 'status', status: 429 }, { kind: 'slow', delayMs: 10 }]);
    const listed = (await (await control('/__sim/faults')).json()) as { faults: { kind: string; fired: number }[] };
    expect(listed.faults.map((f) => [f.kind, f.fired])).toEqual([['status', 0], ['slow', 0]]);
    expect((await control('/__sim/faults', 'DELETE')).status).toBe(200);
    expect(((await (await control('/__sim/faults')).json()) as { faults: unknown[] }).faults).toEqual([]);
    const invalid = await addFault({ kind: 'explode' });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toBe('invalid fault rule');
  });
});

describe('journal, reset and page', () => {
  it('records imitated requests newest first, with the fault that answered, but not /__sim/ calls', async () => {
    const totalBefore = ((await (await control('/__sim/requests?limit=0')).json()) as { total: number }).total;
    await fetch(`${url}/thing?x=1`);
    await addFault({ kind: 'status', status: 500, times: 1 });
    await fetch(`${url}/thing`, { method: 'POST' });
    const { requests } = (await (await control('/__sim/requests')).json()) as { requests: { method: string; url: string; status: number; fault?: string }[] };
    expect(requests.map((r) => [r.method, r.url, r.status, r.fault])).toEqual([
      ['POST', '/thing', 500, 'status'],
      ['GET', '/thing?x=1', 200, undefined],
    ]);
    // The newest only, with the count of all ever received (a journal keeps the last 500).
    const newest = (await (await control('/__sim/requests?limit=1')).json()) as { total: number; requests: { url: string }[] };
    expect(newest.requests.map((r) => r.url)).toEqual(['/thing']);
    expect(newest.total).toBe(totalBefore + 2);
  });

  it('reset clears faults and the journal and runs the simulator\'s own reset', async () => {
    await fetch(`${url}/thing`);
    await addFault({ kind: 'status', status: 500 });
    const before = resets;
    expect(await (await control('/__sim/reset', 'POST', {})).json()).toEqual({ reset: true });
    expect(resets).toBe(before + 1);
    expect(((await (await control('/__sim/requests')).json()) as { requests: unknown[] }).requests).toEqual([]);
    expect((await fetch(`${url}/thing`)).status).toBe(200);
  });

  it('renders the page with the simulator\'s sections, escaped, plus faults and requests', async () => {
    await addFault({ kind: 'status', status: 418, pathPrefix: '/teapot' });
    const page = await control('/__sim/');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('<strong>Test API</strong>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>x</script>');
    expect(html).toContain('<h2>Active faults</h2>');
    expect(html).toContain('/teapot');
    expect(html).toContain('Requests received');
    expect(html).toContain('simAction(&quot;/__sim/reset&quot;');
    expect((await fetch(`${url}/__sim`, { redirect: 'manual' })).headers.get('location')).toBe('/__sim/');
  });
});
