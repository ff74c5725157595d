import type { RunView, ScheduleView } from '@bo/proto';
import type { Route } from 'playwright-core';

/**
 * The gateway's runs and schedules answers as the contracts shape them (proto/src/runs.ts), held by
 * the test: one run moving (its stream sends two progress events and `end` once released), one
 * whose total is not known and whose cancel is on its way, one failed, one completed, one cancelled;
 * the payments service does not answer.
 */
export function fakeRunsBackend() {
  const now = Date.now();
  const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
  const id = (service: string, n: number) => `${service}.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a${String(n).padStart(2, '0')}`;
  const base = (change: Partial<RunView> & Pick<RunView, 'id' | 'service' | 'kind' | 'status'>): RunView => ({
    progress: { current: 0, total: null, counters: {} },
    lastError: null,
    startedBy: 'admin:owner',
    schedule: null,
    attempts: 1,
    createdAt: at(60),
    startedAt: at(60),
    completedAt: null,
    cancelRequested: false,
    version: 1,
    steps: [],
    result: null,
    ...change,
  });
  const ids = { running: id('shop-sync', 1), counting: id('pricing', 2), failed: id('shop-sync', 3), completed: id('notifications', 4), cancelled: id('ai-chat', 5) };
  const runs = new Map<string, RunView>(
    [
      base({
        id: ids.running, service: 'shop-sync', kind: 'woocommerce-sync', status: 'in_progress', createdAt: at(95), startedAt: at(95), version: 7,
        progress: { current: 120, total: 400, counters: { updated: 118, failed: 2 } },
        steps: [{ name: 'read-sheet', completedAt: at(94) }],
      }),
      base({ id: ids.counting, service: 'pricing', kind: 'sheet-refresh', status: 'in_progress', createdAt: at(300), startedAt: at(300), cancelRequested: true, progress: { current: 12, total: null, counters: {} }, startedBy: 'system' }),
      base({
        id: ids.failed, service: 'shop-sync', kind: 'woocommerce-sync', status: 'failed', createdAt: at(3600), startedAt: at(3600), completedAt: at(3590), attempts: 3,
        lastError: 'The shop answered 401 Unauthorized: Sorry, you cannot list resources. (woocommerce_rest_cannot_view) — check the consumer key and secret',
        progress: { current: 0, total: 400, counters: {} }, startedBy: 'schedule:nightly-sync', schedule: 'nightly-sync',
      }),
      base({
        id: ids.completed, service: 'notifications', kind: 'expiry-check', status: 'completed', createdAt: at(7200), startedAt: at(7200), completedAt: at(7140),
        progress: { current: 37, total: 37, counters: { reminded: 35, skipped: 2 } }, startedBy: 'schedule:expiry-check', schedule: 'expiry-check',
        steps: [{ name: 'find-expiring', completedAt: at(7190) }, { name: 'send-reminders', completedAt: at(7140) }], result: { reminded: 35, skipped: 2 },
      }),
      base({ id: ids.cancelled, service: 'ai-chat', kind: 'prompt-reindex', status: 'cancelled', createdAt: at(90_000), startedAt: at(90_000), completedAt: at(89_000), progress: { current: 5, total: 20, counters: {} }, startedBy: 'event:ai-chat.prompt.saved' }),
    ].map((run) => [run.id, run]),
  );
  const schedules: ScheduleView[] = [
    { name: 'expiry-check', service: 'notifications', expression: '0 * * * *', runKind: 'expiry-check', lastTickAt: at(7200), lastRunId: ids.completed, nextRunAt: new Date(now + 1_800_000).toISOString() },
    { name: 'nightly-sync', service: 'shop-sync', expression: '0 3 * * *', runKind: 'woocommerce-sync', lastTickAt: at(3600), lastRunId: ids.failed, nextRunAt: new Date(now + 40_000_000).toISOString() },
  ];
  const listQueries: string[] = [];
  const posted: string[] = [];
  const streamsOpened: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const json = (route: Route, body: unknown, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  const state = {
    ids,
    posted,
    streamsOpened,
    refuseNextCancel: null as string | null,
    lastListQuery: () => listQueries.at(-1) ?? '',
    releaseStream: () => release(),
    async answer(route: Route) {
      const url = new URL(route.request().url());
      const method = route.request().method();
      if (url.pathname === '/api/admin/schedules') return json(route, { data: schedules, unreachable: ['payments'] });
      if (url.pathname === '/api/admin/runs') {
        listQueries.push(url.search);
        const status = url.searchParams.get('status');
        const service = url.searchParams.get('service');
        const data = [...runs.values()].filter((run) => (!status || run.status === status) && (!service || run.service === service));
        return json(route, { data, unreachable: ['payments'] });
      }
      const [, runId, action] = /^\/api\/admin\/runs\/([^/]+)(?:\/(\w+))?$/.exec(url.pathname) ?? [];
      const run = runs.get(decodeURIComponent(runId ?? ''));
      if (!run) return json(route, { success: false, error: 'Run not found' }, 404);
      if (!action && method === 'GET') return json(route, run);
      if (action === 'events') {
        streamsOpened.push(run.id);
        await released;
        const moved = { ...run, version: 8, progress: { current: 300, total: 400, counters: { updated: 298, failed: 2 } } };
        const done: RunView = {
          ...run, version: 9, status: 'completed', completedAt: new Date().toISOString(), progress: { current: 400, total: 400, counters: { updated: 398, failed: 2 } },
          steps: [...run.steps, { name: 'push-prices', completedAt: new Date().toISOString() }, { name: 'record', completedAt: new Date().toISOString() }], result: { synced: 398, failed: 2 },
        };
        runs.set(run.id, done);
        const { steps: _steps, result: _result, ...progressOnly } = moved;
        const body = `: heartbeat\n\nid: 8\nevent: progress\ndata: ${JSON.stringify(progressOnly)}\n\nid: 9\nevent: progress\ndata: ${JSON.stringify(done)}\n\nevent: end\ndata: {}\n\n`;
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body });
      }
      if (method === 'POST' && action === 'cancel') {
        posted.push(`cancel ${run.id}`);
        if (state.refuseNextCancel) {
          const error = state.refuseNextCancel;
          state.refuseNextCancel = null;
          return json(route, { success: false, error }, 409);
        }
        const cancelled = { ...run, cancelRequested: true, version: run.version + 1 };
        runs.set(run.id, cancelled);
        return json(route, { success: true, run: cancelled });
      }
      if (method === 'POST' && action === 'retry') {
        posted.push(`retry ${run.id}`);
        const retried: RunView = { ...run, status: 'pending', lastError: null, completedAt: null, attempts: run.attempts + 1, version: run.version + 1 };
        runs.set(run.id, retried);
        return json(route, { success: true, run: retried });
      }
      return json(route, { success: false, error: 'Not found' }, 404);
    },
  };
  return state;
}
