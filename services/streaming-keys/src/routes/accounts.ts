import type { FastifyInstance } from 'fastify';
import { maskSecret, serveRoute, type SecretBox } from '@bo/platform';
import { listAccounts, setAccountMailboxPassword, setAccountPassword, type ServiceCode } from '@bo/proto';
import type { StreamingAccount } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/** An account as an admin sees it: whether each password is stored and its last characters, never the whole. */
const accountView = (account: StreamingAccount, secrets: SecretBox) => ({
  email: account.email,
  service: account.service as ServiceCode,
  passwordSet: account.password !== null,
  passwordMasked: account.password === null ? '' : maskSecret(secrets.open(account.password)),
  passwordUpdatedAt: account.passwordUpdatedAt?.toISOString() ?? null,
  mailboxPasswordSet: account.mailboxPassword !== null,
  mailboxPasswordMasked: account.mailboxPassword === null ? '' : maskSecret(secrets.open(account.mailboxPassword)),
});

/** The account e-mails keys are profiles of, their shared sign-in password and their mailbox's password. */
export function registerAccountRoutes(app: FastifyInstance, { prisma, secrets, pool }: StreamingKeysRouteDeps): void {
  serveRoute(app, listAccounts, async ({ query }) => ({ success: true, data: (await keyStore.listAccounts(prisma, query.service)).map((account) => accountView(account, secrets)) }));

  serveRoute(app, setAccountPassword, async ({ body }) => ({ success: true, data: accountView(await pool.setPassword(body.email, body.service, body.password), secrets) }));

  serveRoute(app, setAccountMailboxPassword, async ({ body }) => ({
    success: true,
    data: accountView(await pool.setMailboxPassword(body.email, body.service, body.mailboxPassword), secrets),
  }));
}
