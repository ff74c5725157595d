import type { FastifyInstance } from 'fastify';
import { maskSecret, serveRoute, type SecretBox } from '@bo/platform';
import { listAccounts, setAccountMailboxPassword, setAccountPassword, type ServiceCode } from '@bo/proto';
import type { StreamingAccount } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/**
 * An account as an admin sees it: whether each password is stored and its last characters, never
 * the whole. A password sealed with a key this server lacks is marked unreadable (naming the key
 * id) on its own row, so the list still shows every other account.
 */
function accountView(account: StreamingAccount, secrets: SecretBox) {
  const password = account.password === null ? null : secrets.openForView(account.password, `The password of ${account.email}`);
  const mailbox = account.mailboxPassword === null ? null : secrets.openForView(account.mailboxPassword, `The mailbox password of ${account.email}`);
  return {
    email: account.email,
    service: account.service as ServiceCode,
    passwordSet: password !== null,
    passwordMasked: maskSecret(password?.plain ?? ''),
    passwordUnreadable: password?.unreadable ?? null,
    passwordUpdatedAt: account.passwordUpdatedAt?.toISOString() ?? null,
    mailboxPasswordSet: mailbox !== null,
    mailboxPasswordMasked: maskSecret(mailbox?.plain ?? ''),
    mailboxPasswordUnreadable: mailbox?.unreadable ?? null,
  };
}

/** The account e-mails keys are profiles of, their shared sign-in password and their mailbox's password. */
export function registerAccountRoutes(app: FastifyInstance, { prisma, secrets, pool }: StreamingKeysRouteDeps): void {
  serveRoute(app, listAccounts, async ({ query }) => ({ success: true, data: (await keyStore.listAccounts(prisma, query.service)).map((account) => accountView(account, secrets)) }));

  serveRoute(app, setAccountPassword, async ({ body }) => ({ success: true, data: accountView(await pool.setPassword(body.email, body.service, body.password), secrets) }));

  serveRoute(app, setAccountMailboxPassword, async ({ body }) => ({
    success: true,
    data: accountView(await pool.setMailboxPassword(body.email, body.service, body.mailboxPassword), secrets),
  }));
}
