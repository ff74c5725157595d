/**
 * Starts each simulator on a free port and saves a 1440 px full-page screenshot of its /__sim/
 * page to artifacts/screenshots/sim-<name>.png, for people to look at. Run: `npx tsx bench/sim-pages.ts`.
 * A simulator that cannot start here (the mailbox needs Dovecot) is reported and skipped.
 */
import type { FastifyInstance } from 'fastify';
import { buildGoogleSheetsSimulator, defaultPriceList } from '@bo/sim-google-sheets';
import { listen } from '@bo/sim-kit';
import { buildMailboxSimulator } from '@bo/sim-mailbox';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { buildMarketplaceSimulator } from '@bo/sim-marketplace';
import { buildOidcSimulator } from '@bo/sim-oidc';
import { buildOpenAiSimulator } from '@bo/sim-openai';
import { buildQpaySimulator } from '@bo/sim-qpay';
import { buildWooCommerceSimulator } from '@bo/sim-woocommerce';
import { launchBrowser, newContext, screenshotDir, widths } from '../web/e2e/support';
import { freePort } from '@bo/sim-kit';

/** A started simulator's app and the port it must listen on (0: any), or why it cannot run here. */
type Start = { app: FastifyInstance; port?: number } | { unavailable: string };

const simulators: Record<string, () => Promise<Start>> = {
  'google-sheets': async () => ({ app: buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()] }).simulator.app }),
  oidc: async () => {
    // The issuer is the simulator's own address, so its port is chosen first.
    const port = await freePort();
    const client = { client_id: 'backoffice', client_secret: 'sim-pages', redirect_uris: ['http://127.0.0.1/api/callback'] };
    return { app: buildOidcSimulator({ issuer: `http://127.0.0.1:${port}`, client }).simulator.app, port };
  },
  woocommerce: async () => ({ app: buildWooCommerceSimulator().app }),
  qpay: async () => {
    const qpay = buildQpaySimulator();
    await qpay.ready;
    return { app: qpay.app };
  },
  manychat: async () => ({ app: buildManyChatSimulator().app }),
  openai: async () => ({ app: buildOpenAiSimulator().app }),
  marketplace: async () => ({ app: buildMarketplaceSimulator().app }),
  mailbox: async () => {
    const mailbox = await buildMailboxSimulator();
    return mailbox.available ? { app: mailbox.app } : { unavailable: `${mailbox.reason} (${mailbox.install})` };
  },
};

const browser = await launchBrowser();
let failed = false;
try {
  for (const [name, start] of Object.entries(simulators)) {
    const started = await start().catch((error: Error) => ({ unavailable: `failed to start: ${error.message}` }));
    if ('unavailable' in started) {
      console.log(`${name.padEnd(14)} not shown: ${started.unavailable}`);
      continue;
    }
    const context = await newContext(browser, widths.desktop);
    try {
      const url = await listen(started.app, started.port ?? 0, '127.0.0.1');
      const page = await context.newPage();
      const response = await page.goto(`${url}/__sim/`);
      const path = `${screenshotDir}sim-${name}.png`;
      await page.screenshot({ path, fullPage: true });
      console.log(`${name.padEnd(14)} HTTP ${response?.status()} "${await page.title()}" → ${path}`);
    } catch (error) {
      failed = true;
      console.log(`${name.padEnd(14)} failed: ${(error as Error).message}`);
    } finally {
      await context.close();
      await started.app.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
