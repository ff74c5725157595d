import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface SignedIn {
  cookie: string;
  csrf: string;
}

/** `make create-admin` against the system's database (once), then a sign-in: its cookie and CSRF token. */
export async function signInAdmin(baseUrl: string, databaseUrl: string, username: string, create = true): Promise<SignedIn> {
  const password = 'a long enough password';
  if (create) {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', username, '--password', password], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } });
  }
  const login = await fetch(`${baseUrl}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  expect(login.status, await login.clone().text()).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const { token } = (await (await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } })).json()) as { token: string };
  return { cookie, csrf: token };
}

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads a server-sent event stream: each event as it comes, and whether the stream has ended. */
export function openStream(url: string, headers: Record<string, string>) {
  const events: SseEvent[] = [];
  let ended = false;
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done: finished } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (finished) break;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event: SseEvent = {};
        for (const line of block.split('\n')) {
          const [field, ...rest] = line.split(': ');
          if (field === 'id' || field === 'event' || field === 'data') event[field] = rest.join(': ');
        }
        if (event.event) events.push(event);
      }
    }
    ended = true;
  })();
  return { events, done, isEnded: () => ended, close: () => controller.abort() };
}

/**
 * Background work through the gateway, as the dashboard uses it: a WooCommerce sync is a run in
 * the list; its event stream shows each change and ends with it; Last-Event-ID resumes it; a
 * stream ends when its session does; finished runs refuse cancel and retry; every service's
 * schedules are listed with their next tick.
 */
export async function checkBackgroundWork(baseUrl: string, databaseUrl: string, wooUrl: string): Promise<void> {
  const admin = await signInAdmin(baseUrl, databaseUrl, 'runs-admin');
  const other = await signInAdmin(baseUrl, databaseUrl, 'runs-admin', false);
  const as = (who: SignedIn, write = false) => ({ cookie: who.cookie, ...(write && { 'x-csrf-token': who.csrf, 'content-type': 'application/json' }) });
  // The shop answers its first product call 6 s late: the sync's plan step waits that long.
  const slow = await fetch(`${wooUrl}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ kind: 'slow', delayMs: 6_000, pathPrefix: '/wp-json/wc/v3/products', times: 1 }]) });
  expect(slow.status).toBeLessThan(300);
  const pressed = fetch(`${baseUrl}/api/woocommerce/sync`, { method: 'POST', headers: as(admin, true), body: '{}' });

  let runId = '';
  await expect
    .poll(async () => {
      const listed = (await (await fetch(`${baseUrl}/api/admin/runs?service=shop-sync&kind=woocommerce-sync&status=in_progress`, { headers: as(admin) })).json()) as { data: { id: string }[]; unreachable: string[] };
      runId = listed.data[0]?.id ?? '';
      return runId;
    }, { timeout: 10_000 })
    .toMatch(/^shop-sync\./);

  const watching = openStream(`${baseUrl}/api/admin/runs/${runId}/events`, as(admin));
  const signedOut = openStream(`${baseUrl}/api/admin/runs/${runId}/events`, as(other));
  await expect.poll(() => signedOut.events.length, { timeout: 5_000 }).toBeGreaterThan(0);
  expect((await fetch(`${baseUrl}/api/admin/logout`, { method: 'POST', headers: as(other, true), body: '{}' })).status).toBeLessThan(300);
  // The second session is gone: its stream ends within the gateway's check, the run still going.
  await expect.poll(() => signedOut.isEnded(), { timeout: 8_000 }).toBe(true);
  expect(watching.isEnded()).toBe(false);

  const sync = (await (await pressed).json()) as { id: string; status: string };
  expect(sync).toMatchObject({ id: runId, status: 'finished' });
  await watching.done;
  const progress = watching.events.filter((event) => event.event === 'progress');
  expect(watching.events.at(-1)).toMatchObject({ event: 'end' });
  const last = JSON.parse(progress.at(-1)!.data!) as { status: string; version: number; kind: string };
  expect(last).toMatchObject({ status: 'completed', kind: 'woocommerce-sync' });
  const ids = progress.map((event) => Number(event.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  expect(progress.map((event) => JSON.parse(event.data!).status)).toContain('in_progress');

  // Resumed after the last event seen: nothing is sent twice, only the end.
  const resumed = openStream(`${baseUrl}/api/admin/runs/${runId}/events`, { ...as(admin), 'last-event-id': String(last.version) });
  await resumed.done;
  expect(resumed.events).toEqual([{ event: 'end', data: JSON.stringify({ status: 'completed' }) }]);

  const run = (await (await fetch(`${baseUrl}/api/admin/runs/${runId}`, { headers: as(admin) })).json()) as { steps: { name: string }[]; startedBy: string };
  expect(run.steps[0].name).toBe('plan');
  expect(run.startedBy).toMatch(/^admin:/);
  const cancel = await fetch(`${baseUrl}/api/admin/runs/${runId}/cancel`, { method: 'POST', headers: as(admin, true), body: '{}' });
  expect(cancel.status).toBe(409);
  expect(((await cancel.json()) as { error: string }).error).toContain('only a pending or running run can be cancelled');
  expect((await fetch(`${baseUrl}/api/admin/runs/${runId}/retry`, { method: 'POST', headers: as(admin, true), body: '{}' })).status).toBe(409);
  expect((await fetch(`${baseUrl}/api/admin/runs/shop-sync.not-a-uuid`, { headers: as(admin) })).status).toBe(400);
  expect((await fetch(`${baseUrl}/api/admin/runs/${runId}`)).status).toBe(401);

  const schedules = (await (await fetch(`${baseUrl}/api/admin/schedules`, { headers: as(admin) })).json()) as { data: { service: string; name: string; nextRunAt: string | null }[]; unreachable: string[] };
  expect(schedules.unreachable).toEqual([]);
  const names = schedules.data.map((entry) => `${entry.service}/${entry.name}`);
  expect(names).toEqual(expect.arrayContaining(['gateway/session-sweep', 'gateway/log-retention', 'notifications/expiry-check', 'payments/qpay-reconciliation', 'payments/log-retention', 'streaming-keys/log-retention', 'shop-sync/sweep-messaging']));
  expect(schedules.data.every((entry) => entry.nextRunAt !== null)).toBe(true);
  // Every domain service evaluates its alert rules on a schedule; the gateway lists every service's alerts, and only to an admin.
  expect(names).toEqual(expect.arrayContaining(['pricing', 'shop-sync', 'payments', 'streaming-keys', 'scraper', 'ai-chat', 'notifications'].map((service) => `${service}/alert-check`)));
  const alerts = await fetch(`${baseUrl}/api/admin/alerts?status=active`, { headers: as(admin) });
  expect(alerts.status).toBe(200);
  expect(((await alerts.json()) as { unreachable: string[] }).unreachable).toEqual([]);
  expect((await fetch(`${baseUrl}/api/admin/alerts`)).status).toBe(401);
}
