import { attemptCounterFor } from '@bo/platform/cache';
import { createPrismaClient } from '@bo/platform/db';
import type { ServiceDefinition } from '@bo/platform/service';
import { buildGateway } from './app';
import { gatewayEnvSchema, type GatewayConfig } from './config';
import { PrismaClient } from './generated/prisma/client';
import { GATEWAY_SCHEMA, migrateGateway } from './store/schema';

/** The gateway, as every launcher starts it: its schema (the platform's tables and its own), then the app. */
const gateway: ServiceDefinition<GatewayConfig, PrismaClient> = {
  name: 'gateway',
  configSchema: gatewayEnvSchema,
  // The sign-in simulator stands in for an OpenID Connect provider (the launcher adds the client secret).
  simulatorEnv: (simulators) => ({ OIDC_ISSUER_URL: simulators.oidc, OIDC_CLIENT_ID: 'backoffice' }),
  deployment: {
    settings: {
      PUBLIC_URL: 'https://backoffice.example.com',
      TRUST_PROXY: '1',
      OIDC_ISSUER_URL: 'https://accounts.example.com',
      OIDC_CLIENT_ID: 'backoffice',
      ADMIN_EMAILS: 'admin@example.com',
    },
    secrets: { SESSION_SECRET: 'replace-with-32-or-more-random-characters', OIDC_CLIENT_SECRET: 'replace-me' },
  },
  async start({ config, logger, infrastructure, checkReplies }) {
    await migrateGateway(infrastructure.database);
    const prisma = createPrismaClient(PrismaClient, infrastructure.database, GATEWAY_SCHEMA);
    const { cache } = infrastructure;
    const app = await buildGateway({
      config,
      logger,
      prisma,
      database: infrastructure.database,
      // Sign-in attempts are counted where every replica sees them: Redis when distributed.
      attempts: attemptCounterFor(cache, 'sign-in:'),
      readiness: infrastructure.readiness,
      checkReplies,
    });
    return {
      name: 'gateway',
      app,
      prisma,
      relay: null,
      alerts: null,
      exposed: undefined,
      async stop() {
        await app.close();
        await prisma.$disconnect();
      },
    };
  },
};
export default gateway;
