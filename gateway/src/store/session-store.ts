import type { FastifySessionObject, SessionStore } from '@fastify/session';
import type * as Fastify from 'fastify';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { sessionExpiry } from '../domain/session-policy';
import { GATEWAY_SCHEMA } from './schema';

type Callback = (error?: unknown) => void;

/**
 * @fastify/session store on document 3's `sessions` table (sid, sess json, expire). The row's
 * expire is the session's own idle/absolute deadline, so expired rows are never read and the
 * periodic sweep deletes them.
 */
export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  set(sid: string, session: Fastify.Session, callback: Callback): void {
    const sess = JSON.parse(JSON.stringify(session)) as Prisma.InputJsonValue;
    const expire = sessionExpiry(session);
    this.prisma.session
      .upsert({ where: { sid }, create: { sid, sess, expire }, update: { sess, expire } })
      .then(() => callback(), callback);
  }

  get(sid: string, callback: (error: unknown, session?: FastifySessionObject | null) => void): void {
    this.prisma.session
      .findFirst({ where: { sid, expire: { gt: new Date() } } })
      .then((row) => callback(null, row ? (row.sess as unknown as FastifySessionObject) : null), callback);
  }

  destroy(sid: string, callback: Callback): void {
    this.prisma.session.deleteMany({ where: { sid } }).then(() => callback(), callback);
  }

  /** Ends every session of one account at once (logout everywhere, disabled user). */
  async destroyForUser(userId: string): Promise<number> {
    return this.prisma.$executeRawUnsafe(`DELETE FROM "${GATEWAY_SCHEMA}".sessions WHERE sess->'auth'->>'userId' = $1`, userId);
  }

  async deleteExpired(now = new Date()): Promise<number> {
    return (await this.prisma.session.deleteMany({ where: { expire: { lte: now } } })).count;
  }
}
