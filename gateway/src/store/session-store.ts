import type { FastifySessionObject, SessionStore } from '@fastify/session';
import type * as Fastify from 'fastify';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { sessionExpiry } from '../domain/session-policy';
import { GATEWAY_SCHEMA } from './schema';

type Callback = (error?: unknown) => void;

/**
 * Marks a session that was read from a row. @fastify/session copies the loaded object's keys onto
 * the request's session, so the mark travels with it; it is stripped before every write.
 */
const LOADED = '_loadedFromStore';

/** Only a session that carries an account or a sign-in in progress is worth a row. */
const worthARow = (session: Record<string, unknown>) => session.auth !== undefined || session.oidc !== undefined;

/**
 * @fastify/session store on document 3's `sessions` table (sid, sess json, expire). The row's
 * expire is the session's own idle/absolute deadline, so expired rows are never read and the
 * periodic sweep deletes them.
 *
 * A session once ended stays ended: a loaded session is only ever updated, so a request still in
 * flight when its row is deleted (logout, disable, terminate) cannot write it back; only a freshly
 * generated id is inserted, and only when it holds something (anonymous visitors get no row).
 */
export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  set(sid: string, session: Fastify.Session, callback: Callback): void {
    const { [LOADED]: loaded, ...plain } = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
    const sess = plain as Prisma.InputJsonValue;
    const expire = sessionExpiry(session);
    const write = loaded
      ? this.prisma.session.updateMany({ where: { sid }, data: { sess, expire } })
      : worthARow(plain)
        ? this.prisma.session.create({ data: { sid, sess, expire } })
        : Promise.resolve();
    write.then(() => callback(), callback);
  }

  get(sid: string, callback: (error: unknown, session?: FastifySessionObject | null) => void): void {
    this.prisma.session
      .findFirst({ where: { sid, expire: { gt: new Date() } } })
      .then((row) => callback(null, row ? ({ ...(row.sess as object), [LOADED]: true } as unknown as FastifySessionObject) : null), callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.prisma.session.deleteMany({ where: { sid } }).then(() => callback(), callback);
  }

  /** Ends every session of one account at once (logout everywhere, disabled user). */
  async destroyForUser(userId: string): Promise<number> {
    return this.prisma.$executeRawUnsafe(`DELETE FROM "${GATEWAY_SCHEMA}".sessions WHERE sess->'auth'->>'userId' = $1`, userId);
  }

  /** Whether the session still stands (not logged out, terminated or past its deadline). */
  async isAlive(sid: string): Promise<boolean> {
    return (await this.prisma.session.count({ where: { sid, expire: { gt: new Date() } } })) > 0;
  }

  async deleteExpired(now = new Date()): Promise<number> {
    return (await this.prisma.session.deleteMany({ where: { expire: { lte: now } } })).count;
  }
}
