import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainServiceName } from '@bo/proto';
import { createLogger } from '@bo/platform';
import { eventually } from '@bo/platform/testing/eventually';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import aiChat, { SIMULATOR_AI_API_KEY } from '@bo/ai-chat/service';
import notifications, { SIMULATOR_MANYCHAT_TOKEN } from '@bo/notifications/service';
import pricing from '@bo/pricing/service';
import scraper from '@bo/scraper/service';
import shopSync, { SIMULATOR_KEY } from '@bo/shop-sync/service';
import streamingKeys from '@bo/streaming-keys/service';
import { buildGoogleSheetsSimulator, defaultPriceList, PRICE_LIST_SPREADSHEET_ID } from '@bo/sim-google-sheets';
import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { buildOpenAiSimulator } from '@bo/sim-openai';
import { buildQpaySimulator } from '@bo/sim-qpay';
import { buildWooCommerceSimulator, defaultSeed } from '@bo/sim-woocommerce';
import payments, { qpaySimulatorSettings } from '../src/service';

/**
 * Issue "honest log levels": every domain service (its relay, consumers, effects, runs, schedules
 * and the alert check every 15 s) on one database behind a proxy, cut while /ready is probed every
 * second and an admin reads each service. Each part says once that it fails (warn, with what to
 * do) and once that it works again (info); nothing is an error. The line counts are printed; the
 * outage of the issue (30 s) is `OUTAGE_DRILL_SECONDS=30`, and `OUTAGE_DRILL_OUT=file` keeps the lines.
 */
const CUT_MS = Number(process.env.OUTAGE_DRILL_SECONDS ?? 4) * 1000;
const SERVICES: DomainServiceName[] = ['payments', 'streaming-keys', 'notifications', 'pricing', 'shop-sync', 'ai-chat', 'scraper'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

describe('logs across a database outage', () => {
  let system: TestSystem;
  const lines: { level: number; msg: string; service?: string; [field: string]: unknown }[] = [];
  const qpay = buildQpaySimulator({ seed: false });
  const manychat = buildManyChatSimulator();
  const sheets = buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()] });
  const woo = buildWooCommerceSimulator({ seed: defaultSeed() });
  const openai = buildOpenAiSimulator({ persona: 'openai' });

  beforeAll(async () => {
    await qpay.ready;
    const [qpayUrl, manychatUrl, sheetsUrl, wooUrl, openaiUrl] = await Promise.all([listen(qpay.app), listen(manychat.app), listen(sheets.simulator.app), listen(woo.app), listen(openai.app)]);
    const logger = createLogger('outage', process.env.OUTAGE_DRILL_LEVEL ?? 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) });
    system = await startTestSystem('outage_logs', { services: SERVICES, databaseProxy: true, logger });
    const often = { ALERT_CHECK_CRON: '*/15 * * * * *' };
    await system.start(pricing as never, { ...often, GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID, GOOGLE_SHEETS_ROOT_URL: sheetsUrl, GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)) });
    await system.start(shopSync as never, { ...often, WOOCOMMERCE_URL: wooUrl, WOOCOMMERCE_CONSUMER_KEY: SIMULATOR_KEY.key, WOOCOMMERCE_CONSUMER_SECRET: SIMULATOR_KEY.secret });
    await system.start(payments as never, { ...often, ...qpaySimulatorSettings(qpayUrl), PUBLIC_URL: system.url('payments'), RECONCILE_EVERY_MS: '10000' });
    await system.start(streamingKeys as never, { ...often, PUBLIC_URL: system.url('payments') });
    await system.start(notifications as never, { ...often, MANYCHAT_API_URL: manychatUrl, MANYCHAT_API_TOKEN: SIMULATOR_MANYCHAT_TOKEN });
    await system.start(aiChat as never, { ...often, OPENAI_BASE_URL: `${openaiUrl}/v1`, OPENAI_API_KEY: SIMULATOR_AI_API_KEY });
    await system.start(scraper as never, { ...often });
  }, 180_000);
  afterAll(async () => {
    system?.databaseProxy?.resume();
    await system?.stop();
    for (const app of [qpay.app, manychat.app, sheets.simulator.app, woo.app, openai.app]) await app.close();
  });

  it('says each state change of every service once (warn, then info) and writes no error line, however often /ready is probed', { timeout: CUT_MS + 120_000 }, async () => {
    const database = system.databaseProxy!;
    await sleep(3_000);
    const from = lines.length;
    let probing = true;
    // Kubernetes probes /ready every second; an admin reads each service meanwhile (refused 503 while the database is away).
    const probes = (async () => {
      while (probing) {
        await Promise.all(SERVICES.map((service) => fetch(`${system.url(service)}/ready`).catch(() => null)));
        await Promise.all(SERVICES.map((service) => system.call(service, 'GET', `/api/admin/events/${service}/failed-outbox`).catch(() => null)));
        await sleep(1_000);
      }
    })();
    database.refuse();
    database.cutAll();
    await sleep(CUT_MS);
    database.resume();
    const during = () => lines.slice(from);
    const said = (service: string, level: number, start: string) => during().filter((line) => line.service === service && line.level === level && String(line.msg).startsWith(start)).length;
    // What failed says it works again (the relay, the effects, the runs, the schedules…): as many recoveries as warnings.
    const recoveries = (service: string) => during().filter((line) => line.service === service && line.level === 30 && line.failedForMs !== undefined).length;
    const failures = (service: string) => during().filter((line) => line.service === service && line.level === 40 && !String(line.msg).startsWith('not ready')).length;
    const settled = await eventually(() => SERVICES.every((service) => said(service, 30, 'ready again') === 1 && recoveries(service) >= failures(service)), 30_000, 'every service ready and working again')
      .then(() => null, (error: unknown) => error);
    probing = false;
    await probes;

    const byLevel: Record<string, number> = {};
    const byMessage: Record<string, number> = {};
    for (const line of during()) {
      const level = LEVELS[line.level as number];
      byLevel[level] = (byLevel[level] ?? 0) + 1;
      const key = `${level} ${String(line.service)}: ${String(line.msg).split(':')[0]}`;
      byMessage[key] = (byMessage[key] ?? 0) + 1;
    }
    console.info(`database cut ${CUT_MS / 1000} s under ${SERVICES.length} services, /ready probed every second: ${JSON.stringify({ byLevel, byMessage }, null, 1)}`);
    if (process.env.OUTAGE_DRILL_OUT) writeFileSync(process.env.OUTAGE_DRILL_OUT, during().map((line) => JSON.stringify(line)).join('\n'));

    // The counts are printed first, so that a run where it never settles still shows what it wrote.
    if (settled) throw settled;
    expect(during().filter((line) => line.level >= 50)).toEqual([]);
    for (const service of SERVICES) {
      expect(said(service, 40, 'not ready: the database is unreachable'), service).toBe(1);
      expect(said(service, 30, 'ready again'), service).toBe(1);
    }
    // Each part of each service warns once, whatever the outage's length.
    expect(Object.entries(byMessage).filter(([key, count]) => key.startsWith('warn') && count > 1)).toEqual([]);
  });
});
