/**
 * Creates a local admin account, or resets its password and re-enables it:
 *   tsx gateway/src/cli/create-admin.ts --username alice --password 'long secret'
 * Reads DATABASE_URL like the gateway (`make create-admin` sets it to the embedded database when
 * none is given); applies the gateway's migrations first.
 */
import { hash } from '@node-rs/argon2';
import { createPrismaClient, openDatabase } from '@bo/platform/db';
import { parseArgs } from 'node:util';
import { PrismaClient } from '../generated/prisma/client';
import { AccountsStore } from '../store/accounts-store';
import { GATEWAY_SCHEMA, migrateGateway } from '../store/schema';

const MIN_PASSWORD_LENGTH = 12;

const { values } = parseArgs({ options: { username: { type: 'string' }, password: { type: 'string' } } });
if (!values.username || !values.password) {
  console.error('usage: create-admin.ts --username <name> --password <password>');
  process.exit(2);
}
if (values.password.length < MIN_PASSWORD_LENGTH) {
  console.error(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
  process.exit(2);
}

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: run this through `make create-admin`, which uses the embedded database when none is given.');
  process.exit(2);
}
const database = await openDatabase({ kind: 'postgres', url });
await migrateGateway(database);
const prisma = createPrismaClient(PrismaClient, database, GATEWAY_SCHEMA);
try {
  // argon2id with the library's defaults (19 MiB, t=2, p=1: OWASP's minimum).
  const admin = await new AccountsStore(prisma).upsertLocalAdmin(values.username.trim(), await hash(values.password));
  console.log(`Local admin "${admin.username}" is ready; sign in on /login with the password form.`);
} finally {
  await prisma.$disconnect();
  await database.close();
}
