import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildNotificationsApp } from './app';
import { notificationsEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The ManyChat simulator's API key (simulators/manychat/src/state.ts): what the embedded run uses. */
export const SIMULATOR_MANYCHAT_TOKEN = '1000001:sim-manychat-secret';

/** The notifications service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'notifications',
  configSchema: notificationsEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  simulatorEnv: (simulators) => ({ MANYCHAT_API_URL: simulators.manychat, MANYCHAT_API_TOKEN: SIMULATOR_MANYCHAT_TOKEN }),
  deployment: {
    settings: { MANYCHAT_API_URL: 'https://api.manychat.com' },
    secrets: { MANYCHAT_API_TOKEN: '<page_id>:<api secret>' },
  },
  build: buildNotificationsApp,
});
