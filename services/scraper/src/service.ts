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
  build: buildScraperApp,
});
