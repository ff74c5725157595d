import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '@bo/platform/service';
import { asAdmin, startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import { listen } from '@bo/sim-kit';
import { buildGoogleSheetsSimulator, defaultPriceList, PRICE_LIST_SPREADSHEET_ID, type GoogleSheetsSimulator } from '@bo/sim-google-sheets';
import pricing from '../src/service';

/** Reads a minute the service account is given here: Google's is 60; twice that keeps the test short. */
const QUOTA_PER_MINUTE = 120;
const LOOP_MS = 8_000;

// Issue 20: Google counts Sheets reads per service account, whichever process makes them. Two
// pricing processes share one pace in Redis (half the quota at once, the rest over the minute), so
// together they never pass the quota, and a reload that finds the pace full for longer than it
// may wait fails as paced instead of being refused by Google.
describe('two pricing processes reading the price sheet as fast as they can', () => {
  let system: TestSystem;
  let sheets: GoogleSheetsSimulator;
  let second: RunningService;

  beforeAll(async () => {
    sheets = buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()], quotas: { readsPerMinutePerUser: QUOTA_PER_MINUTE } });
    const sheetsUrl = await listen(sheets.simulator.app);
    system = await startTestSystem('pricing_sheets_pace', { services: ['pricing'] });
    await system.start(pricing as never, {
      GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID,
      GOOGLE_SHEETS_ROOT_URL: sheetsUrl,
      GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)),
      GOOGLE_SHEETS_QUOTA_PER_MINUTE: String(QUOTA_PER_MINUTE),
    });
    second = await system.replica('pricing');
  });
  afterAll(async () => {
    await system?.stop();
    await sheets?.simulator.app.close();
  });

  it('keeps the service account under its quota together: Google refuses none, and what it cannot read in time fails as paced', async () => {
    const first = system.running('pricing')!;
    const replies = new Map<RunningService, number[]>([[first, []], [second, []]]);
    const sheetReads = () => sheets.simulator.journal.list().filter((entry) => entry.method === 'GET' && entry.url.includes('/values/')).length;
    const started = Date.now();
    // Two operators on each process, each reloading one after another for LOOP_MS, and on (a loaded
    // machine reads slower) until the burst has been used: then the pace is what lets reads through.
    const reloads = (process_: RunningService) =>
      (async () => {
        const going = () => Date.now() - started < LOOP_MS || sheetReads() <= QUOTA_PER_MINUTE / 2;
        while (going()) replies.get(process_)!.push((await process_.app.inject({ method: 'POST', url: '/api/cache/invalidate', headers: asAdmin })).statusCode);
      })();
    await Promise.all([reloads(first), reloads(first), reloads(second), reloads(second)]);
    const elapsedS = (Date.now() - started) / 1000;

    const reads = sheets.simulator.journal.list().filter((entry) => entry.method === 'GET' && entry.url.includes('/values/'));
    // Google answered every read it saw: none was refused for the quota.
    expect(reads.filter((entry) => entry.status === 429)).toEqual([]);
    // Half the quota at once, then a read every second (120 a minute): what a shared pace lets through
    // in the time the reloads took (elapsedS, however long the machine made it). Two paces of their
    // own would have let 60 at once each.
    expect(reads.length).toBeGreaterThan(QUOTA_PER_MINUTE / 2);
    expect(reads.length).toBeLessThanOrEqual(QUOTA_PER_MINUTE / 2 + Math.ceil(elapsedS * (QUOTA_PER_MINUTE / 2 / 60)) + 1);
    // Both processes read; a reload that could not have its turn in time answered 503, none another way.
    const all = [...replies.values()].flat();
    expect(all.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // (A process's reloads at the same moment share one read.)
    expect(all.filter((status) => status === 200).length).toBeGreaterThanOrEqual(reads.length);
    for (const answered of replies.values()) expect(answered.filter((status) => status === 200).length).toBeGreaterThan(5);
  }, 120_000);
});
