import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildStreamingKeysApp } from './app';
import { streamingKeysEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The streaming-keys service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'streaming-keys',
  configSchema: streamingKeysEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  // The mailbox simulator runs only where Dovecot is installed; without it code fetching says it is not configured.
  simulatorEnv: (simulators): Record<string, string> => (simulators.mailboxImap ? { MAILBOX_IMAP_URL: simulators.mailboxImap } : {}),
  deployment: {
    settings: { PUBLIC_URL: 'https://shop.example.mn' },
    secrets: { DATA_ENCRYPTION_KEY: 'replace-with-32-or-more-random-characters' },
  },
  sealedColumns: [
    { table: 'streaming_accounts', column: 'password' },
    { table: 'streaming_accounts', column: 'mailbox_password' },
  ],
  build: buildStreamingKeysApp,
});
