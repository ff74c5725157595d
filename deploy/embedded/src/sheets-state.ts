import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildGoogleSheetsSimulator, defaultPriceList, type GoogleSheetsSimulator, type ServiceAccountCredentials, type SpreadsheetSeed } from '@bo/sim-google-sheets';

interface SavedSheets {
  serviceAccount: Pick<ServiceAccountCredentials, 'project_id' | 'client_email' | 'private_key_id' | 'private_key'>;
  spreadsheets: SpreadsheetSeed[];
}

/**
 * The Sheets simulator of the embedded run keeps its spreadsheets in the data folder, so a price
 * edited in the dashboard is still in "the sheet" after a restart, like the real one would be.
 */
export async function startPersistentSheets(dataDir: string): Promise<GoogleSheetsSimulator & { save(): Promise<void> }> {
  const file = path.join(dataDir, 'google-sheets.json');
  const saved = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as SavedSheets) : null;
  const sheets = buildGoogleSheetsSimulator(
    saved ? { serviceAccount: saved.serviceAccount, spreadsheets: saved.spreadsheets } : { spreadsheets: [defaultPriceList()] },
  );

  let writing = Promise.resolve();
  const save = () => {
    writing = writing.then(async () => {
      const spreadsheets = [...sheets.state.spreadsheets.keys()].map((id) => {
        const view = sheets.state.view(id)!;
        return { id: view.id, title: view.title, sharedWith: view.sharedWith, sheets: view.sheets.map((s) => ({ title: s.title, rows: s.rows })) };
      });
      const credentials = sheets.credentials('http://unused');
      const body: SavedSheets = {
        serviceAccount: { project_id: credentials.project_id, client_email: credentials.client_email, private_key_id: credentials.private_key_id, private_key: credentials.private_key },
        spreadsheets,
      };
      await writeFile(`${file}.tmp`, JSON.stringify(body));
      await rename(`${file}.tmp`, file); // never leave a half-written file behind
    });
    return writing;
  };
  // Any successful write through the API (or a /__sim/ change) is saved right after it is answered.
  sheets.simulator.app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) await save();
  });
  if (!saved) await save();
  return { ...sheets, save };
}
