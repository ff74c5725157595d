import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildScraperApp } from './app';
import { scraperEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The scraper service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'scraper',
  configSchema: scraperEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  // The marketplace simulator listens on this machine: its host is allowed past the outbound guard.
  simulatorEnv: (simulators) => ({ SCRAPER_ALLOWED_HOSTS: new URL(simulators.marketplace).host }),
  deployment: { settings: { SCRAPER_ALLOWED_HOSTS: '' }, secrets: {} },
  imageTarget: 'scraper',
  // Each worker reads this many pages at once, each in a browser context of its own.
  runConcurrency: (config) => config.SCRAPER_PAGES_PER_WORKER,
  build: buildScraperApp,
});
