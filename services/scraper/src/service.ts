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
  // A worker with its Chromium stays under 600 MB (issue 22; bench/scraper.ts measures it): the container's limit leaves room above that.
  deployment: { settings: { SCRAPER_ALLOWED_HOSTS: '' }, secrets: {}, memory: { request: '512Mi', limit: '768Mi' } },
  imageTarget: 'scraper',
  // A heap bounded well above what a worker keeps (about 70 MB), so V8 collects before it grows: its
  // Node process peaked at 190-215 MB over a 200-page job this way, 240-315 MB without (bench/scraper.ts).
  nodeOptions: ['--max-old-space-size=256', '--max-semi-space-size=2'],
  // Each worker reads this many pages at once, each in a browser context of its own.
  runConcurrency: (config) => config.SCRAPER_PAGES_PER_WORKER,
  build: buildScraperApp,
});
