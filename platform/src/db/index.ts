// Database access of every service: one PostgreSQL schema per service, Prisma clients qualified
// with that schema, and migrations applied at start (Prisma's folder layout and history table).
export { type Database, type DatabaseConfig, heardPool, openDatabase, quoteIdentifier } from './database';
export { createPrismaClient, type PrismaClientClass, type SqlClient } from './prisma-client';
export { migrate, type MigrateOptions, platformMigrationsDir } from './migrate';
