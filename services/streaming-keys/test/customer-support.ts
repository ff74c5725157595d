import { readFile } from 'node:fs/promises';
import { signedAs } from '@bo/platform/testing/services';
import { listen } from '@bo/sim-kit';
import { buildMailboxSimulator, type MailAccount, type MailboxSimulator } from '@bo/sim-mailbox';
import type { ServiceCode } from '@bo/proto';
import type { KeysSystem } from './system';

/** The shared accounts of the customer suites: each account e-mail is its own mailbox on the simulator's Dovecot. */
export const ACCOUNTS = {
  NFX: { username: 'nfx.shared@streamshop.test', password: 'nfx-mailbox-pass' },
  NFX2: { username: 'nfx.other@streamshop.test', password: 'nfx-other-mailbox-pass' },
  DPS: { username: 'dps.shared@streamshop.test', password: 'dps-mailbox-pass' },
  AMZ: { username: 'amz.shared@streamshop.test', password: 'amz-mailbox-pass' },
  HLU: { username: 'hlu.shared@streamshop.test', password: 'hlu-mailbox-pass' },
  MAX: { username: 'max.shared@streamshop.test', password: 'max-mailbox-pass' },
} satisfies Record<string, MailAccount>;

/** Dovecot with the accounts above and empty mailboxes (each test delivers what it reads). */
export async function startMailbox(): Promise<{ sim: MailboxSimulator; url: string; imapUrl: string }> {
  const built = await buildMailboxSimulator({ accounts: Object.values(ACCOUNTS), seed: () => [] });
  if (!built.available) throw new Error(`the mailbox simulator needs Dovecot: ${built.reason} (${built.install})`);
  return { sim: built, url: await listen(built.app), imapUrl: `imap://${built.imap.host}:${built.imap.port}` };
}

/** How often Dovecot let this user sign in so far (its log has one line per login). */
export async function loginsOf(sim: MailboxSimulator, user: string): Promise<number> {
  const log = await readFile(sim.imap.logFile, 'utf8');
  return log.split('\n').filter((line) => line.includes('Login: user=<') && line.includes(`user=<${user}>`)).length;
}

/** How often a client tried to sign in as this user, refused or not (Dovecot logs one imap-login line per try). */
export async function signInAttemptsOf(sim: MailboxSimulator, user: string): Promise<number> {
  const log = await readFile(sim.imap.logFile, 'utf8');
  return log.split('\n').filter((line) => line.includes('imap-login: ') && line.includes(`user=<${user}>`)).length;
}

/** How often this user's IMAP session ended with a LOGOUT (Dovecot's "Logged out" line). */
export async function logoutsOf(sim: MailboxSimulator, user: string): Promise<number> {
  const log = await readFile(sim.imap.logFile, 'utf8');
  return log.split('\n').filter((line) => line.includes(`imap(${user})`) && line.includes('Logged out')).length;
}

/** A customer session as the gateway forwards it: the e-mail it signed in with and its key (or none). */
export const asCustomer = (email: string, keyId: number | null) => signedAs({ kind: 'customer', userId: null, email, isAdmin: false, keyId: keyId === null ? null : String(keyId) });

export interface MadeKey {
  id: number;
  key: string;
  email: string;
  service: ServiceCode;
}

/** Keys made by the admin route, one per profile of the account. */
export async function makeKeys(it: KeysSystem, service: ServiceCode, email: string, profiles: number, months = 1): Promise<MadeKey[]> {
  const made = await it.call('POST', '/api/streaming-keys', { service, email, months, profiles });
  if (made.status !== 200) throw new Error(`keys not made: ${JSON.stringify(made.body)}`);
  return made.body.data.keys;
}

/** Sets an account's mailbox password through the admin route. */
export async function setMailbox(it: KeysSystem, service: ServiceCode, email: string, mailboxPassword: string) {
  const set = await it.call('PUT', '/api/streaming-accounts/mailbox', { service, email, mailboxPassword });
  if (set.status !== 200) throw new Error(`mailbox password not set: ${JSON.stringify(set.body)}`);
  return set.body.data;
}

/** A key bought by this customer (what a sale records), for sessions without a key id. */
export async function sellTo(it: KeysSystem, keyId: number, buyerEmail: string) {
  await it.keys.prisma.streamingKey.update({ where: { id: keyId }, data: { buyerEmail, assignedAt: new Date() } });
}

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
