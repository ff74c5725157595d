import { listen } from '@bo/sim-kit';
import { buildGoogleSheetsSimulator, defaultPriceList, PRICE_LIST_SPREADSHEET_ID } from './app';

// Runs the Google Sheets simulator alone, seeded with the demo price list.
const port = Number(process.env.PORT ?? 4310);
const { simulator } = buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()], logger: true });
const url = await listen(simulator.app, port);
console.log(`Google Sheets simulator at ${url}/ (page ${url}/__sim/, key file ${url}/__sim/service-account, spreadsheet ${PRICE_LIST_SPREADSHEET_ID})`);
