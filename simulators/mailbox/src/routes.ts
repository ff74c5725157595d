import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BLOCKED_KINDS, MAIL_KINDS } from './emails';
import { UnknownAccountError, type MailboxState } from './state';

const deliverSchema = z.object({
  account: z.string(),
  kind: z.enum(MAIL_KINDS),
  at: z.coerce.date().optional(),
  code: z.string().regex(/^\d{4,8}$/).optional(),
});

/** Accounts, messages and delivery, for tests and the control page. */
export function registerControlRoutes(app: FastifyInstance, state: MailboxState, imap: { host: string; port: number; logFile: string }): void {
  app.get('/__sim/accounts', async () => ({
    imap: { host: imap.host, port: imap.port },
    accounts: state.accounts.map((a) => ({ ...a, messages: state.messages(a.username).length })),
  }));
  app.get<{ Params: { account: string } }>('/__sim/accounts/:account/messages', async (request, reply) => {
    if (!state.accounts.some((a) => a.username === request.params.account)) return reply.code(404).send({ error: `no mailbox for ${request.params.account}` });
    return { messages: state.messages(request.params.account) };
  });
  // The IMAP side's journal: every sign-in Dovecot saw (one imap-login line per connection that tried), oldest first.
  app.get('/__sim/sign-ins', async () => {
    const log = await readFile(imap.logFile, 'utf8').catch(() => '');
    const signIns = log
      .split('\n')
      .filter((line) => line.includes('imap-login: '))
      .flatMap((line) => {
        const user = /user=<([^>]+)>/.exec(line)?.[1];
        return user ? [{ user, ok: line.includes(' Login: user=<') }] : [];
      });
    return { signIns };
  });
  app.get('/__sim/kinds', async () => ({ kinds: MAIL_KINDS.map((kind) => ({ kind, blocked: (BLOCKED_KINDS as readonly string[]).includes(kind) })) }));
  app.post('/__sim/deliver', async (request, reply) => {
    const input = deliverSchema.safeParse(request.body ?? {});
    if (!input.success) return reply.code(400).send({ error: 'invalid request', details: input.error.issues });
    try {
      return reply.code(201).send({ message: await state.deliver(input.data) });
    } catch (error) {
      if (error instanceof UnknownAccountError) return reply.code(404).send({ error: error.message });
      throw error;
    }
  });
}
