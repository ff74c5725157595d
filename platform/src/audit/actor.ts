/**
 * Who the audit log names (docs/audit-log.md). While an admin's write request runs, its actor rides in
 * an AsyncLocalStorage; every connection the process takes from its pool carries it to PostgreSQL as
 * the `bo.actor` setting, where the audited tables' trigger reads it in the change's own transaction.
 * Anything else (customers, webhooks, events, schedules, work left running after the answer) leaves
 * the setting empty, and the trigger writes nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

export interface AuditActor {
  /** The admin's user id and name (their e-mail) as they are now. */
  id: string | null;
  name: string;
  address: string | null;
  /** `PUT /api/qpay/settings`: the route's method and pattern. */
  request: string;
  correlationId: string | null;
}

/** The request's holder: empty until its identity is known to be an admin's writing, emptied once answered. */
type ActorHolder = { actor: string };

const holders = new AsyncLocalStorage<ActorHolder>();

/** Runs `fn` (the rest of a request's handling) with a holder its actor can be put in. */
export function runWithActorHolder<T>(fn: () => T): T {
  return holders.run({ actor: '' }, fn);
}

/** Names the actor of the request in hand: its writes from now on are audited. */
export function setAuditActor(actor: AuditActor): void {
  const holder = holders.getStore();
  if (holder) holder.actor = JSON.stringify(actor);
}

/** The request was answered: what it left running is no longer its admin's doing. */
export function clearAuditActor(): void {
  const holder = holders.getStore();
  if (holder) holder.actor = '';
}

/** Runs `fn` unaudited inside an admin's request (a copy refreshed from its source, not a value an admin wrote). */
export function withoutAudit<T>(fn: () => Promise<T>): Promise<T> {
  return holders.run({ actor: '' }, fn);
}

const ACTOR = Symbol('bo.actor');
type TaggedClient = pg.PoolClient & { [ACTOR]?: string };

/**
 * Makes every connection `pool` hands out carry the actor of the request that asked for it (or none),
 * setting it on the connection only when it differs from what the connection carries already: one
 * round trip when an admin's write takes a connection, and one when the next caller takes it back.
 * pg's own pool.query takes its connection through connect(), so both ways are covered.
 */
export function carryAuditActor(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const withActor = async (actor: string): Promise<pg.PoolClient> => {
    const client = (await connect()) as TaggedClient;
    if ((client[ACTOR] ?? '') === actor) return client;
    try {
      await client.query(`SELECT set_config('bo.actor', $1, false)`, [actor]);
      client[ACTOR] = actor;
      return client;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  };
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, release?: (error?: Error) => void) => void) => {
    const acquired = withActor(holders.getStore()?.actor ?? '');
    if (!callback) return acquired;
    acquired.then((client) => callback(undefined, client, client.release.bind(client)), (error: Error) => callback(error));
    return undefined;
  }) as typeof pool.connect;
}
