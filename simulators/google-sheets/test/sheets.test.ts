import { listen } from '@bo/sim-kit';
import { auth as googleAuth, sheets as sheetsClient, type sheets_v4 } from '@googleapis/sheets';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildGoogleSheetsSimulator, PRICE_LIST_HEADER, PRICE_LIST_SPREADSHEET_ID as PRICES, ServiceAccount, type ServiceAccountCredentials } from '../src/app';

const SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** This suite's own price list (the simulator's default one follows the shop simulator and may change). */
const priceList = {
  id: PRICES,
  title: 'Price list',
  sheets: [
    {
      title: 'Sheet1',
      rows: [
        PRICE_LIST_HEADER,
        ['simple', '', '101', 'Netflix Premium 1 month', 'NF-PREM-1M', '45000', '', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '102', 'Netflix Premium 3 months', 'NF-PREM-3M', '125000', '119000', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '103', 'Netflix Standard 1 month', 'NF-STD-1M', '32000', '', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '111', 'Disney+ 1 month', 'DSNY-1M', '25000', '', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '112', 'Disney+ 12 months', 'DSNY-12M', '250000', '229000', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '121', 'Prime Video 1 month', 'PRIME-1M', '18000', '', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '131', 'Hulu 1 month', 'HULU-1M', '22000', '', 'publish', 'outofstock', '', 'Streaming'],
        ['simple', '', '141', 'HBO Max 1 month', 'HBO-1M', '28000', '', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '142', 'HBO Max 6 months', 'HBO-6M', '150000', '139000', 'publish', 'instock', '', 'Streaming'],
        ['simple', '', '201', 'PUBG Mobile 660 UC', 'PUBG-660UC', '32000', '', 'publish', 'instock', '', 'Games'],
        ['simple', '', '202', 'Mobile Legends 257 Diamonds', 'MLBB-257', '18500', '', 'publish', 'instock', '', 'Games'],
        ['variable', '', '301', 'Free Fire Diamonds', 'FF-DIAMONDS', '', '', 'publish', 'instock', 'Diamonds: 100 | 310 | 520', 'Games'],
        ['variation', '301', '302', 'Free Fire Diamonds - 100', 'FF-100', '4500', '', 'publish', 'instock', 'Diamonds: 100', 'Games'],
        ['variation', '301', '303', 'Free Fire Diamonds - 310', 'FF-310', '13500', '', 'publish', 'instock', 'Diamonds: 310', 'Games'],
        ['variation', '301', '304', 'Free Fire Diamonds - 520', 'FF-520', '22000', '21000', 'publish', 'instock', 'Diamonds: 520', 'Games'],
      ],
    },
  ],
};
const built = buildGoogleSheetsSimulator({
  spreadsheets: [
    priceList,
    { id: 'shapes', sheets: [{ title: 'Price List', rows: [['a', 'b', 'c'], ['d'], [], ['', 'e']] }, { title: 'Sheet1' }] },
    { id: 'private', sheets: [{ title: 'Sheet1', rows: [['secret']] }], sharedWith: ['someone-else@example.iam.gserviceaccount.com'] },
  ],
});
let url: string;
let creds: ServiceAccountCredentials;
let sheets: sheets_v4.Sheets;

/** Google's Sheets client as the pricing service builds it: a self-signed JWT, no token call. */
function clientFor(credentials: Pick<ServiceAccountCredentials, 'client_email' | 'private_key' | 'private_key_id'>) {
  const auth = new googleAuth.JWT({ email: credentials.client_email, key: credentials.private_key, keyId: credentials.private_key_id, scopes: [SCOPE] });
  auth.useJWTAccessWithScope = true;
  return sheetsClient({ version: 'v4', auth, rootUrl: `${url}/` });
}

/** A client that sends a given access token as it is. */
function clientWithToken(accessToken: string) {
  const auth = new googleAuth.OAuth2();
  auth.setCredentials({ access_token: accessToken, expiry_date: Date.now() + 3_600_000 });
  return sheetsClient({ version: 'v4', auth, rootUrl: `${url}/` });
}

async function sign(claims: Record<string, unknown>, iat: number, exp: number) {
  const key = await importPKCS8(creds.private_key, 'RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: creds.private_key_id }).setIssuedAt(iat).setExpirationTime(exp).sign(key);
}

/** The Google error a rejected call carried. */
async function failure(call: Promise<unknown>) {
  const error = (await call.then(() => undefined, (e: unknown) => e)) as { response?: { status: number; data: { error: { code: number; status: string; message: string; details?: { reason?: string }[] } } } };
  expect(error?.response, 'the call should have failed').toBeDefined();
  return { ...error.response!.data.error, http: error.response!.status };
}

const sim = (path: string, init?: RequestInit) => fetch(`${url}${path}`, { ...init, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  url = await listen(built.simulator.app);
  creds = built.credentials(url);
  sheets = clientFor(creds);
});
afterAll(() => built.simulator.app.close());
beforeEach(async () => {
  await sim('/__sim/reset', { method: 'POST', body: '{}' });
});

describe('reading values', () => {
  it('returns the price list with the normalised range, header first', async () => {
    const { data } = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!A:K' });
    expect(data.range).toBe('Sheet1!A1:K1000');
    expect(data.majorDimension).toBe('ROWS');
    expect(data.values![0]).toEqual(['type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice', 'salePrice', 'status', 'stockStatus', 'attributes', 'categories']);
    expect(data.values).toHaveLength(16);
    expect(data.values![1]).toEqual(['simple', '', '101', 'Netflix Premium 1 month', 'NF-PREM-1M', '45000', '', 'publish', 'instock', '', 'Streaming']);
  });

  it('leaves trailing empty cells and rows out, keeps inner gaps, and omits values when empty', async () => {
    const { data } = await sheets.spreadsheets.values.get({ spreadsheetId: 'shapes', range: "'Price List'!A1:C10" });
    expect(data.values).toEqual([['a', 'b', 'c'], ['d'], [], ['', 'e']]);
    expect(data.range).toBe("'Price List'!A1:C10");
    const empty = await sheets.spreadsheets.values.get({ spreadsheetId: 'shapes', range: "'Price List'!A10:C" });
    expect(empty.data).toEqual({ range: "'Price List'!A10:C1000", majorDimension: 'ROWS' });
    const bare = await sheets.spreadsheets.values.get({ spreadsheetId: 'shapes', range: 'Sheet1' });
    expect(bare.data.values).toBeUndefined();
    const columns = await sheets.spreadsheets.values.get({ spreadsheetId: 'shapes', range: "'Price List'!A1:C4", majorDimension: 'COLUMNS' });
    expect(columns.data.values).toEqual([['a', 'd'], ['b', '', '', 'e'], ['c']]);
  });

  it('types numbers only when asked for UNFORMATTED_VALUE', async () => {
    const formatted = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!F2:G3' });
    expect(formatted.data.values).toEqual([['45000'], ['125000', '119000']]);
    const typed = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!F2:G3', valueRenderOption: 'UNFORMATTED_VALUE' });
    expect(typed.data.values).toEqual([[45000], [125000, 119000]]);
  });

  it('reads several ranges in one batchGet and describes the sheets', async () => {
    const { data } = await sheets.spreadsheets.values.batchGet({ spreadsheetId: PRICES, ranges: ['Sheet1!A1:B1', 'D2'] });
    expect(data.valueRanges!.map((r) => [r.range, r.values])).toEqual([
      ['Sheet1!A1:B1', [['type', 'parent']]],
      ['Sheet1!D2', [['Netflix Premium 1 month']]],
    ]);
    const meta = await sheets.spreadsheets.get({ spreadsheetId: 'shapes', fields: 'sheets.properties' });
    expect(meta.data.sheets!.map((s) => [s.properties!.title, s.properties!.index, s.properties!.gridProperties!.rowCount])).toEqual([
      ['Price List', 0, 1000],
      ['Sheet1', 1, 1000],
    ]);
  });

  it('refuses an unknown sheet with Google\'s INVALID_ARGUMENT', async () => {
    const error = await failure(sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet9!A1:K' }));
    expect(error).toMatchObject({ http: 400, code: 400, message: 'Unable to parse range: Sheet9!A1:K' });
  });
});

describe('writing values', () => {
  it('updates a row (PUT) and reads USER_ENTERED numbers back typed, RAW text as text', async () => {
    const { data } = await sheets.spreadsheets.values.update({
      spreadsheetId: PRICES, range: 'Sheet1!F2:G2', valueInputOption: 'USER_ENTERED', requestBody: { values: [['47000', '44000']] },
    });
    expect(data).toMatchObject({ spreadsheetId: PRICES, updatedRange: 'Sheet1!F2:G2', updatedRows: 1, updatedColumns: 2, updatedCells: 2 });
    await sheets.spreadsheets.values.update({ spreadsheetId: PRICES, range: 'Sheet1!F3', valueInputOption: 'RAW', requestBody: { values: [['130000']] } });
    const read = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!F2:G3', valueRenderOption: 'UNFORMATTED_VALUE' });
    expect(read.data.values).toEqual([[47000, 44000], ['130000', 119000]]);
  });

  it('requires valueInputOption and refuses writing past the given range', async () => {
    const missing = await failure(sheets.spreadsheets.values.update({ spreadsheetId: PRICES, range: 'Sheet1!A2', requestBody: { values: [['x']] } }));
    expect(missing).toMatchObject({ http: 400, message: "'valueInputOption' is required but not specified" });
    const tooWide = await failure(sheets.spreadsheets.values.update({ spreadsheetId: PRICES, range: 'Sheet1!A2:B2', valueInputOption: 'RAW', requestBody: { values: [['x', 'y', 'z']] } }));
    expect(tooWide.http).toBe(400);
  });

  it('appends after the table and reports tableRange and updates', async () => {
    const { data } = await sheets.spreadsheets.values.append({
      spreadsheetId: PRICES, range: 'Sheet1!A:K', valueInputOption: 'USER_ENTERED',
      requestBody: { values: [['simple', '', '150', 'YouTube Premium 1 month', 'YT-1M', '15000', '', 'publish', 'instock', '', 'Streaming']] },
    });
    expect(data).toEqual({
      spreadsheetId: PRICES,
      tableRange: 'Sheet1!A1:K16',
      updates: { spreadsheetId: PRICES, updatedRange: 'Sheet1!A17:K17', updatedRows: 1, updatedColumns: 11, updatedCells: 11 },
    });
    const row = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!A17:K17' });
    expect(row.data.values![0][3]).toBe('YouTube Premium 1 month');
  });

  it('applies a batchUpdate whole, or not at all when one part is bad', async () => {
    const bad = await failure(sheets.spreadsheets.values.batchUpdate({
      spreadsheetId: PRICES,
      requestBody: { valueInputOption: 'USER_ENTERED', data: [{ range: 'Sheet1!F2', values: [['1']] }, { range: 'Sheet9!F3', values: [['2']] }] },
    }));
    expect(bad).toMatchObject({ http: 400, message: 'Unable to parse range: Sheet9!F3' });
    const untouched = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!F2' });
    expect(untouched.data.values).toEqual([['45000']]);

    const { data } = await sheets.spreadsheets.values.batchUpdate({
      spreadsheetId: PRICES,
      requestBody: { valueInputOption: 'USER_ENTERED', data: [{ range: 'Sheet1!F2:G2', values: [['46000', '43000']] }, { range: 'Sheet1!F3', values: [['120000']] }] },
    });
    expect(data).toMatchObject({ totalUpdatedRows: 2, totalUpdatedColumns: 3, totalUpdatedCells: 3, totalUpdatedSheets: 1 });
    expect(data.responses!.map((r) => r.updatedRange)).toEqual(['Sheet1!F2:G2', 'Sheet1!F3']);
  });

  it('clears a range', async () => {
    const { data } = await sheets.spreadsheets.values.clear({ spreadsheetId: PRICES, range: 'Sheet1!A2:K' });
    expect(data).toEqual({ spreadsheetId: PRICES, clearedRange: 'Sheet1!A2:K1000' });
    const left = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!A:K' });
    expect(left.data.values).toHaveLength(1);
    const grid = (await (await sim(`/__sim/spreadsheets/${PRICES}`)).json()) as { sheets: { rows: string[][] }[] };
    expect(grid.sheets[0].rows).toHaveLength(1);
  });
});

describe('auth, access and quotas', () => {
  it('answers 404 for an unknown spreadsheet and 403 for one not shared with the service account', async () => {
    expect(await failure(sheets.spreadsheets.values.get({ spreadsheetId: 'nope', range: 'A1' }))).toMatchObject({ http: 404, message: 'Requested entity was not found.' });
    const denied = await failure(sheets.spreadsheets.values.get({ spreadsheetId: 'private', range: 'A1' }));
    expect(denied).toMatchObject({ http: 403, message: 'The caller does not have permission' });
  });

  it('answers 401 UNAUTHENTICATED for an expired token, a stranger\'s key and no token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ iss: creds.client_email, sub: creds.client_email, scope: SCOPE }, now - 7200, now - 3600);
    const error = await failure(clientWithToken(expired).spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' }));
    expect(error).toMatchObject({ http: 401, code: 401 });
    expect(error.details![0].reason).toBe('ACCESS_TOKEN_EXPIRED');

    const stranger = ServiceAccount.generate('other-project').credentials(url);
    expect((await failure(clientFor({ ...stranger, client_email: creds.client_email }).spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' }))).http).toBe(401);
    const anonymous = await fetch(`${url}/v4/spreadsheets/${PRICES}/values/A1`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { status: string } }).error.status).toBe('UNAUTHENTICATED');
  });

  it('exchanges a signed assertion at /token for an access token the API accepts', async () => {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await sign({ iss: creds.client_email, scope: SCOPE, aud: creds.token_uri }, now, now + 3600);
    const answer = await fetch(creds.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    const token = (await answer.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(token).toMatchObject({ expires_in: 3599, token_type: 'Bearer' });
    const { data } = await clientWithToken(token.access_token).spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!D2' });
    expect(data.values).toEqual([['Netflix Premium 1 month']]);

    const forged = await fetch(creds.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertion.slice(0, -4) + 'AAAA' }),
    });
    expect(forged.status).toBe(400);
  });

  it('answers 429 RESOURCE_EXHAUSTED with RATE_LIMIT_EXCEEDED past the per-user read quota', async () => {
    await sim('/__sim/quotas', { method: 'PUT', body: JSON.stringify({ readsPerMinutePerUser: 2 }) });
    await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' });
    await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' });
    const error = await failure(sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' }, { retry: false }));
    expect(error).toMatchObject({ http: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(error.details![0].reason).toBe('RATE_LIMIT_EXCEEDED');
    // Writes have their own quota.
    await sheets.spreadsheets.values.update({ spreadsheetId: PRICES, range: 'Sheet1!F2', valueInputOption: 'RAW', requestBody: { values: [['1']] } });
    const quotas = (await (await sim('/__sim/quotas')).json()) as { usage: { kind: string; used: number }[] };
    expect(quotas.usage.find((u) => u.kind === 'read')?.used).toBe(2);
  });
});

describe('faults through the client\'s retries', () => {
  it('lets a persistent 503 reach the caller, and hides a 503 that fails only twice', async () => {
    const unavailable = { kind: 'status', status: 503, pathPrefix: '/v4/', body: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } };
    await sim('/__sim/faults', { method: 'POST', body: JSON.stringify(unavailable) });
    const error = await failure(sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'A1' }));
    expect(error).toMatchObject({ http: 503, message: 'The service is currently unavailable.' });

    await sim('/__sim/reset', { method: 'POST', body: '{}' });
    await sim('/__sim/faults', { method: 'POST', body: JSON.stringify({ ...unavailable, times: 2 }) });
    const { data } = await sheets.spreadsheets.values.get({ spreadsheetId: PRICES, range: 'Sheet1!D2' });
    expect(data.values).toEqual([['Netflix Premium 1 month']]);
    const journal = (await (await sim('/__sim/requests')).json()) as { requests: { status: number }[] };
    expect(journal.requests.map((r) => r.status)).toEqual([200, 503, 503]);
  }, 20_000);

  it('serves the key file and a page showing the grid', async () => {
    const file = (await (await sim('/__sim/service-account')).json()) as ServiceAccountCredentials;
    expect(file).toMatchObject({ type: 'service_account', client_email: creds.client_email, token_uri: `${url}/token` });
    const page = await (await sim('/__sim/')).text();
    expect(page).toContain('Netflix Premium 1 month');
    expect(page).toContain('Quotas');
  });
});
