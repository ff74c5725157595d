import { schemaOf, streamingServiceOf, type ServiceCode, type StreamingKeyView } from '@bo/proto';
import { displayStatus, isHeld } from '../domain/keys';
import type { Prisma, PrismaClient, StreamingKey } from '../generated/prisma/client';

/** The service's database client or one of its transactions: store functions run in either, never opening their own. */
export type KeysDb = PrismaClient | Prisma.TransactionClient;

/** Raw SQL is not schema-qualified by Prisma (see platform's prisma-client). */
const KEYS_TABLE = `"${schemaOf('streaming-keys')}".streaming_keys`;
const ACCOUNTS_TABLE = `"${schemaOf('streaming-keys')}".streaming_accounts`;

/** Neither sold nor given to anyone, and active: what a sale may take (isHeld in the domain, as a filter). */
export const freeKeyWhere = { assignedAt: null, customerId: null, isActive: 1 } satisfies Prisma.StreamingKeyWhereInput;
export const heldWhere = { OR: [{ assignedAt: { not: null } }, { customerId: { not: null } }] } satisfies Prisma.StreamingKeyWhereInput;

export const keyView = (record: StreamingKey, now = new Date()): StreamingKeyView => ({
  id: record.id,
  email: record.email,
  key: record.key,
  service: record.service as ServiceCode,
  serviceName: streamingServiceOf(record.service as ServiceCode).name,
  profileNumber: record.profileNumber,
  expiresAt: record.expiresAt.toISOString(),
  isActive: record.isActive,
  status: displayStatus(record, now),
  customerId: record.customerId,
  held: isHeld(record),
  assignedAt: record.assignedAt?.toISOString() ?? null,
  buyerEmail: record.buyerEmail,
  streamingInvoiceId: record.streamingInvoiceId,
  lastNotificationSent: record.lastNotificationSent?.toISOString() ?? null,
  notificationStatus: record.notificationStatus as StreamingKeyView['notificationStatus'],
  notificationError: record.notificationError,
  notificationAttempts: record.notificationAttempts,
  isOptedOut: record.isOptedOut,
  createdAt: record.createdAt.toISOString(),
});

/** What every change of a key does besides its own fields: the version its events carry grows. */
const nextVersion = { version: { increment: 1 } } as const;

/** The keys and their accounts through Prisma; the only place that touches those two tables. */
export const keyStore = {
  find(db: KeysDb, id: number) {
    return db.streamingKey.findUnique({ where: { id } });
  },

  /** The key with this text (keys are unique). */
  findByText(db: KeysDb, key: string) {
    return db.streamingKey.findUnique({ where: { key } });
  },

  /** The keys a customer bought (their orders' e-mail), whatever account they are profiles of. */
  boughtBy(db: KeysDb, buyerEmail: string) {
    return db.streamingKey.findMany({ where: { buyerEmail: { equals: buyerEmail, mode: 'insensitive' } }, orderBy: [{ service: 'asc' }, { expiresAt: 'desc' }, { id: 'asc' }] });
  },

  list(db: KeysDb, filter: { search?: string; service?: ServiceCode }) {
    const search = filter.search ? { OR: [{ email: { contains: filter.search, mode: 'insensitive' as const } }, { key: { contains: filter.search, mode: 'insensitive' as const } }] } : {};
    return db.streamingKey.findMany({ where: { ...search, ...(filter.service ? { service: filter.service } : {}) }, orderBy: [{ email: 'asc' }, { service: 'asc' }, { profileNumber: 'asc' }] });
  },

  recent(db: KeysDb, limit: number) {
    return db.streamingKey.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  },

  /** Not yet expired, expiring by `until`, soonest first. */
  expiringBetween(db: KeysDb, now: Date, until: Date, onlyHeldByChat = false) {
    return db.streamingKey.findMany({
      where: { expiresAt: { gt: now, lte: until }, ...(onlyHeldByChat ? { isActive: 1, customerId: { not: null } } : {}) },
      orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
    });
  },

  /** Keys held by a customer, not yet expired, expiring by `until` (the expiry report). */
  heldExpiringBy(db: KeysDb, now: Date, until: Date) {
    return db.streamingKey.findMany({ where: { ...heldWhere, expiresAt: { gt: now, lte: until } }, orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }] });
  },

  async stats(db: KeysDb, now: Date, soon: Date) {
    const [totalKeys, activeKeys, expired, expiringSoon] = await Promise.all([
      db.streamingKey.count(),
      db.streamingKey.count({ where: { isActive: 1, expiresAt: { gte: now } } }),
      db.streamingKey.count({ where: { expiresAt: { lt: now } } }),
      db.streamingKey.count({ where: { expiresAt: { gte: now, lte: soon } } }),
    ]);
    return { totalKeys, activeKeys, expired, expiringSoon };
  },

  /** Per service: all keys, and those held by a customer. */
  async slotCounts(db: KeysDb) {
    const [all, held] = await Promise.all([
      db.streamingKey.groupBy({ by: ['service'], _count: { _all: true } }),
      db.streamingKey.groupBy({ by: ['service'], where: heldWhere, _count: { _all: true } }),
    ]);
    const count = (rows: typeof all, service: string) => rows.find((row) => row.service === service)?._count._all ?? 0;
    return (service: ServiceCode) => ({ totalSlots: count(all, service), occupiedSlots: count(held, service) });
  },

  async takenProfiles(db: KeysDb, email: string, service: ServiceCode): Promise<number[]> {
    const rows = await db.streamingKey.findMany({ where: { email, service }, select: { profileNumber: true } });
    return rows.map((row) => row.profileNumber);
  },

  /** Keys per account e-mail of a service. */
  async keysPerAccount(db: KeysDb, service: ServiceCode): Promise<Map<string, number>> {
    const rows = await db.streamingKey.groupBy({ by: ['email'], where: { service }, _count: { _all: true } });
    return new Map(rows.map((row) => [row.email, row._count._all]));
  },

  /**
   * Adds a key unless its text is already taken (then null: the caller draws another). A plain
   * insert would abort the whole transaction on that collision; ON CONFLICT keeps it usable.
   */
  async insertKeyUnlessTaken(tx: Prisma.TransactionClient, data: { email: string; service: ServiceCode; key: string; profileNumber: number; expiresAt: Date }): Promise<number | null> {
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO ${KEYS_TABLE} (email, service, key, profile_number, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING RETURNING id`,
      data.email,
      data.service,
      data.key,
      data.profileNumber,
      data.expiresAt,
    );
    return rows[0]?.id ?? null;
  },

  findMany(db: KeysDb, ids: number[]) {
    return db.streamingKey.findMany({ where: { id: { in: ids } }, orderBy: { profileNumber: 'asc' } });
  },

  /** Null when there is no such key. */
  async setCustomerId(db: KeysDb, id: number, customerId: string | null) {
    const { count } = await db.streamingKey.updateMany({ where: { id }, data: { customerId, ...nextVersion } });
    return count === 1 ? db.streamingKey.findUnique({ where: { id } }) : null;
  },

  /** A new expiry starts a new reminder cycle: the previous one's status no longer applies. */
  setExpiry(db: KeysDb, id: number, expiresAt: Date) {
    return db.streamingKey.update({ where: { id }, data: { expiresAt, notificationStatus: null, notificationError: null, notificationAttempts: 0, ...nextVersion } });
  },

  async delete(db: KeysDb, id: number): Promise<boolean> {
    return (await db.streamingKey.deleteMany({ where: { id } })).count === 1;
  },

  /**
   * Locks one free key of the service for this transaction; a concurrent transaction skips it
   * and takes another, so parallel sales never get the same key. Null when none is free.
   */
  async lockFreeKey(tx: Prisma.TransactionClient, service: ServiceCode): Promise<number | null> {
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `SELECT id FROM ${KEYS_TABLE} WHERE service = $1 AND is_active = 1 AND assigned_at IS NULL AND customer_id IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      service,
    );
    return rows[0]?.id ?? null;
  },

  /** Locks a key for this transaction (a renewal or extension reads and moves its expiry). */
  async lockKey(tx: Prisma.TransactionClient, id: number): Promise<StreamingKey | null> {
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM ${KEYS_TABLE} WHERE id = $1 FOR UPDATE`, id);
    return rows.length ? tx.streamingKey.findUnique({ where: { id } }) : null;
  },

  assign(tx: Prisma.TransactionClient, id: number, sale: { customerId: string | null; buyerEmail: string | null; expiresAt: Date; streamingInvoiceId: number; at: Date }) {
    return tx.streamingKey.update({
      where: { id },
      data: { customerId: sale.customerId, buyerEmail: sale.buyerEmail, assignedAt: sale.at, expiresAt: sale.expiresAt, streamingInvoiceId: sale.streamingInvoiceId, notificationStatus: null, notificationError: null, notificationAttempts: 0, ...nextVersion },
    });
  },

  /** A reminder's outcome, kept only while the key still has the expiry the reminder was about. */
  async recordReminder(tx: Prisma.TransactionClient, id: number, reminder: { expiresAt: Date; status: string; attempts: number; at: Date; error: string | null }): Promise<boolean> {
    const { count } = await tx.streamingKey.updateMany({
      where: { id, expiresAt: reminder.expiresAt },
      data: {
        notificationStatus: reminder.status, notificationError: reminder.error, notificationAttempts: reminder.attempts, lastNotificationSent: reminder.at,
        ...(reminder.status === 'opted_out' ? { isOptedOut: true } : {}), ...nextVersion,
      },
    });
    return count === 1;
  },

  saveQrCode(db: KeysDb, keyId: number, qrCodeData: string) {
    return db.streamingQrCode.create({ data: { keyId, qrCodeData } });
  },

  latestQrCode(db: KeysDb, keyId: number) {
    return db.streamingQrCode.findFirst({ where: { keyId }, orderBy: { id: 'desc' } });
  },

  findAccount(db: KeysDb, email: string, service: ServiceCode) {
    return db.streamingAccount.findUnique({ where: { email_service: { email, service } } });
  },

  listAccounts(db: KeysDb, service?: ServiceCode) {
    return db.streamingAccount.findMany({ where: service ? { service } : {}, orderBy: [{ service: 'asc' }, { email: 'asc' }] });
  },

  /**
   * The account of an e-mail, made on first use and locked for this transaction, so two
   * requests adding keys to one account count its free profiles one after the other.
   */
  async lockAccount(tx: Prisma.TransactionClient, email: string, service: ServiceCode): Promise<void> {
    await tx.$executeRawUnsafe(`INSERT INTO ${ACCOUNTS_TABLE} (email, service) VALUES ($1, $2) ON CONFLICT (email, service) DO NOTHING`, email, service);
    await tx.$queryRawUnsafe(`SELECT id FROM ${ACCOUNTS_TABLE} WHERE email = $1 AND service = $2 FOR UPDATE`, email, service);
  },

  /** Stores the sealed password of an account's mailbox, making the account when it is new. */
  saveMailboxPassword(db: KeysDb, email: string, service: ServiceCode, sealedPassword: string) {
    const mailbox = { mailboxPassword: sealedPassword, mailboxPasswordUpdatedAt: new Date() };
    return db.streamingAccount.upsert({ where: { email_service: { email, service } }, create: { email, service, ...mailbox }, update: mailbox });
  },

  /** Stores an account's sealed password, making the account when it is new. */
  savePassword(db: KeysDb, email: string, service: ServiceCode, sealedPassword: string) {
    const password = { password: sealedPassword, passwordUpdatedAt: new Date() };
    return db.streamingAccount.upsert({ where: { email_service: { email, service } }, create: { email, service, ...password }, update: password });
  },
};
