import { fileURLToPath } from 'node:url';
import { migrate, type Database } from '@bo/platform/db';

/** The PostgreSQL schema of the gateway's tables (raw SQL must qualify names with it). */
export const GATEWAY_SCHEMA = 'gateway';

const migrationsDir = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/**
 * The gateway's schema as it starts, create-admin runs and tests build it: the platform's tables
 * (its sweeps are runs on the scheduler) and then its own.
 */
export const migrateGateway = (database: Database) => migrate(database, { schema: GATEWAY_SCHEMA, migrationsDir, platformMigrations: true });
