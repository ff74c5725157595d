import { conflict, notFound, type SecretBox } from '@bo/platform';
import { streamingServiceOf, type ServiceCode } from '@bo/proto';
import { freeProfiles, newKeyText } from '../domain/keys';
import type { Prisma, PrismaClient, StreamingKey } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';

/** Draws of a new random key text before giving up (36^10 texts: a collision is already rare). */
const KEY_TEXT_DRAWS = 5;

export interface NewKeys {
  service: ServiceCode;
  email: string;
  expiresAt: Date;
  profiles: number;
  /** The account's shared sign-in, stored sealed when given. */
  password?: string;
}

/** Adding keys to the pool: one per free profile of an account e-mail. */
export class KeyPool {
  constructor(private readonly deps: { prisma: PrismaClient; secrets: SecretBox }) {}

  /** The lowest `profiles` free profiles of the account get a key each; fewer free ones is a conflict saying how many are left. */
  async create(input: NewKeys): Promise<StreamingKey[]> {
    const { prisma, secrets } = this.deps;
    const sealed = input.password === undefined ? undefined : secrets.seal(input.password);
    const ids = await prisma.$transaction(async (tx) => {
      await keyStore.lockAccount(tx, input.email, input.service);
      if (sealed !== undefined) await keyStore.savePassword(tx, input.email, input.service, sealed);
      const free = freeProfiles(input.service, await keyStore.takenProfiles(tx, input.email, input.service));
      if (free.length < input.profiles) {
        const name = streamingServiceOf(input.service).name;
        throw conflict(free.length === 0 ? `No free profiles left on ${input.email} for ${name}` : `Only ${free.length} free profile(s) left on ${input.email} for ${name}`, { availableSlots: free.length });
      }
      const made: number[] = [];
      for (const profileNumber of free.slice(0, input.profiles)) made.push(await insertWithFreshText(tx, { ...input, profileNumber }));
      return made;
    });
    return keyStore.findMany(prisma, ids);
  }

  /** The profile numbers of an account that have no key. */
  async availableProfiles(email: string, service: ServiceCode): Promise<number[]> {
    return freeProfiles(service, await keyStore.takenProfiles(this.deps.prisma, email, service));
  }

  /** Every account e-mail of a service with its free profile count. */
  async emailsWithSlots(service: ServiceCode) {
    const { prisma } = this.deps;
    const [accounts, counts] = await Promise.all([keyStore.listAccounts(prisma, service), keyStore.keysPerAccount(prisma, service)]);
    const { maxProfiles } = streamingServiceOf(service);
    return accounts.map((account) => ({ email: account.email, availableSlots: Math.max(0, maxProfiles - (counts.get(account.email) ?? 0)) }));
  }

  /** Sets an account's shared password (sealed). The account must exist: it comes with its first key. */
  async setPassword(email: string, service: ServiceCode, password: string) {
    const { prisma, secrets } = this.deps;
    if (!(await keyStore.findAccount(prisma, email, service))) throw notFound(`No ${streamingServiceOf(service).name} account ${email}: create its keys first`);
    return keyStore.savePassword(prisma, email, service, secrets.seal(password));
  }

  /**
   * Sets the password of an account e-mail's mailbox (sealed), which customers' code fetches sign
   * in with. The account is made when it has no keys yet, so its mailbox can be set up first.
   */
  setMailboxPassword(email: string, service: ServiceCode, password: string) {
    return keyStore.saveMailboxPassword(this.deps.prisma, email, service, this.deps.secrets.seal(password));
  }

  /** The account's mailbox password in clear, for a code fetch's IMAP sign-in only; null when none is stored. */
  async mailboxPasswordOf(email: string, service: ServiceCode): Promise<string | null> {
    const account = await keyStore.findAccount(this.deps.prisma, email, service);
    return account?.mailboxPassword ? this.deps.secrets.open(account.mailboxPassword, `The mailbox password of ${email}`) : null;
  }

  /** The account's password in clear, for a delivery message only; null when none is stored. */
  async passwordOf(email: string, service: ServiceCode): Promise<string | null> {
    const account = await keyStore.findAccount(this.deps.prisma, email, service);
    return account?.password ? this.deps.secrets.open(account.password, `The password of ${email}`) : null;
  }
}

async function insertWithFreshText(tx: Prisma.TransactionClient, key: { email: string; service: ServiceCode; profileNumber: number; expiresAt: Date }): Promise<number> {
  for (let draw = 0; draw < KEY_TEXT_DRAWS; draw++) {
    const id = await keyStore.insertKeyUnlessTaken(tx, { ...key, key: newKeyText(key.service) });
    if (id !== null) return id;
  }
  throw new Error(`no unused key text after ${KEY_TEXT_DRAWS} draws`);
}
