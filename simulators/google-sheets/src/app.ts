import { actionButton, createSimulator, escapeHtml, htmlTable, type Simulator } from '@bo/sim-kit';
import { z } from 'zod';
import { columnName } from './a1';
import { registerSheetsApi } from './api';
import { Authenticator } from './auth';
import { DEFAULT_QUOTAS, QuotaMeter, type QuotaLimits } from './quota';
import { ServiceAccount, type ServiceAccountCredentials } from './service-account';
import { SheetsState, type SpreadsheetSeed } from './state';

export { defaultPriceList, PRICE_LIST_HEADER, PRICE_LIST_SPREADSHEET_ID } from './price-list';
export { ServiceAccount, type ServiceAccountCredentials } from './service-account';
export type { SpreadsheetSeed } from './state';
export type { QuotaLimits } from './quota';

export interface GoogleSheetsSimulatorOptions {
  /** A fixed key file to accept; a fresh RSA key is generated when absent. */
  serviceAccount?: Pick<ServiceAccountCredentials, 'project_id' | 'client_email' | 'private_key_id' | 'private_key'>;
  /** Spreadsheets present at start and again after /__sim/reset. */
  spreadsheets?: SpreadsheetSeed[];
  quotas?: Partial<QuotaLimits>;
  logger?: boolean;
}

export interface GoogleSheetsSimulator {
  simulator: Simulator;
  state: SheetsState;
  quotas: QuotaMeter;
  serviceAccount: ServiceAccount;
  /** The key file for a client, with token_uri at `<simulatorUrl>/token`. */
  credentials(simulatorUrl: string): ServiceAccountCredentials;
}

const quotaSchema = z.object({ readsPerMinutePerUser: z.number().int().min(0).optional(), writesPerMinutePerUser: z.number().int().min(0).optional() });

export function buildGoogleSheetsSimulator(options: GoogleSheetsSimulatorOptions = {}): GoogleSheetsSimulator {
  const simulator = createSimulator({ title: 'Google Sheets API v4', logger: options.logger });
  const serviceAccount = options.serviceAccount ? ServiceAccount.fromCredentials(options.serviceAccount) : ServiceAccount.generate();
  const state = new SheetsState(serviceAccount.clientEmail);
  const initialQuotas = { ...DEFAULT_QUOTAS, ...options.quotas };
  const quotas = new QuotaMeter({ ...initialQuotas });
  const seedInitial = () => (options.spreadsheets ?? []).forEach((seed) => state.seed(seed));
  seedInitial();

  const { app } = simulator;
  registerSheetsApi(app, { state, auth: new Authenticator([serviceAccount]), quotas });

  app.get('/__sim/service-account', async (request) => serviceAccount.credentials(`${request.protocol}://${request.host}`));
  app.get('/__sim/spreadsheets', async () => ({ spreadsheets: [...state.spreadsheets.keys()].map((id) => state.view(id)) }));
  app.get<{ Params: { id: string } }>('/__sim/spreadsheets/:id', async (request, reply) => {
    const view = state.view(request.params.id);
    return view ?? reply.code(404).send({ error: 'spreadsheet not found' });
  });
  app.post('/__sim/spreadsheets', async (request, reply) => {
    try {
      return reply.code(201).send(state.view(state.seed(request.body as SpreadsheetSeed).spreadsheetId));
    } catch (error) {
      return reply.code(400).send({ error: 'invalid spreadsheet seed', details: (error as { issues?: unknown }).issues ?? String(error) });
    }
  });
  app.delete<{ Params: { id: string } }>('/__sim/spreadsheets/:id', async (request) => ({ deleted: state.spreadsheets.delete(request.params.id) }));
  app.get('/__sim/quotas', async () => ({ limits: quotas.limits, usage: quotas.usage() }));
  app.put('/__sim/quotas', async (request, reply) => {
    const parsed = quotaSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'invalid quotas', details: parsed.error.issues });
    quotas.limits = { ...quotas.limits, ...parsed.data };
    quotas.resetCounters();
    return { limits: quotas.limits, usage: quotas.usage() };
  });

  simulator.onReset(() => {
    state.clear();
    seedInitial();
    quotas.limits = { ...initialQuotas };
    quotas.resetCounters();
  });

  simulator.addPageSections(() => [
    {
      title: 'Service account',
      html: `<p>Accepted signer: <code>${escapeHtml(serviceAccount.clientEmail)}</code> (key id <code>${escapeHtml(serviceAccount.privateKeyId)}</code>).
        Key file: <a href="/__sim/service-account">/__sim/service-account</a></p>`,
    },
    {
      title: 'Quotas (this minute)',
      html: `<p>Reads/min/user: ${quotas.limits.readsPerMinutePerUser}, writes/min/user: ${quotas.limits.writesPerMinutePerUser}</p>
        ${htmlTable(quotas.usage() as never, ['user', 'kind', 'used', 'limit'])}
        ${actionButton('Reset counters and limits', '/__sim/quota-reset')}`,
    },
    ...[...state.spreadsheets.keys()].flatMap((id) => {
      const view = state.view(id)!;
      return view.sheets.map((sheet) => {
        const width = Math.max(0, ...sheet.rows.map((row) => row.length));
        const columns = ['#', ...Array.from({ length: width }, (_, i) => columnName(i))];
        const rows = sheet.rows.map((row, r) => Object.fromEntries([['#', r + 1], ...row.map((cell, c) => [columnName(c), cell])]));
        return {
          title: `${view.title} (${id}) — ${sheet.title} — shared with ${view.sharedWith.join(', ')}`,
          html: htmlTable(rows, columns),
        };
      });
    }),
  ]);
  // A page button can only POST, so the quota reset has its own small action.
  app.post('/__sim/quota-reset', async () => {
    quotas.limits = { ...initialQuotas };
    quotas.resetCounters();
    return { limits: quotas.limits };
  });

  return { simulator, state, quotas, serviceAccount, credentials: (url) => serviceAccount.credentials(url) };
}
