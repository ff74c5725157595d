import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator, freePort, type Simulator } from '@bo/sim-kit';
import { checkDovecot, DovecotServer, DOVECOT_BINARY, type MailAccount } from './dovecot';
import type { MailOwner } from './maildir';
import { mailboxSections } from './page';
import { registerControlRoutes } from './routes';
import { DEFAULT_ACCOUNTS, defaultSeed } from './seed';
import { MailboxState, type DeliverInput } from './state';

export { ensureDovecot, checkDovecot, DOVECOT_BINARY, DOVECOT_INSTALL, type DovecotCheck, type MailAccount } from './dovecot';
export { ALLOWED_KINDS, BLOCKED_KINDS, MAIL_KINDS, composeMail, type MailKind, type MailContent, type MailLink } from './emails';
export { DEFAULT_ACCOUNTS, defaultSeed } from './seed';
export * from './state';

export interface MailboxSimulatorOptions {
  /** Path of the dovecot binary; a missing one makes the simulator report itself unavailable. */
  dovecotBinary?: string;
  /** Where config, passwd, maildirs and the log go; a fresh temp dir (removed on close) when absent. */
  dataDir?: string;
  /** The IMAP port on 127.0.0.1; a free one when absent. */
  imapPort?: number;
  accounts?: MailAccount[];
  /** The mails each start (and reset) delivers; the default history when absent. */
  seed?: (accounts: MailAccount[], now: Date) => DeliverInput[];
  now?: () => Date;
  logger?: boolean;
}

export type MailboxSimulator = Simulator & {
  available: true;
  state: MailboxState;
  imap: { host: string; port: number; logFile: string; dataDir: string };
};

export interface MailboxUnavailable {
  available: false;
  reason: string;
  install: string;
}


/** Dovecot refuses mail access as root, so as root the mail belongs to nobody. */
const mailOwner = (): MailOwner => (process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });

/**
 * A real IMAP server (Dovecot on 127.0.0.1) holding streaming-service e-mails, plus the /__sim/
 * control app. Closing the app stops Dovecot. Without Dovecot it reports why instead of throwing.
 */
export async function buildMailboxSimulator(options: MailboxSimulatorOptions = {}): Promise<MailboxSimulator | MailboxUnavailable> {
  const found = checkDovecot(options.dovecotBinary ?? DOVECOT_BINARY);
  if (!found.available) return found;
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'bo-mailbox-')));
  const mailRoot = join(dataDir, 'mail');
  await mkdir(mailRoot, { recursive: true });
  // Dovecot's login and mail processes run as other users and must reach these directories.
  await chmod(dataDir, 0o755);
  await chmod(mailRoot, 0o755);

  const accounts = options.accounts ?? DEFAULT_ACCOUNTS;
  const now = options.now ?? (() => new Date());
  const seed = options.seed ?? defaultSeed;
  const owner = mailOwner();
  const state = new MailboxState(accounts, mailRoot, owner, now);
  await state.createMailboxes();
  for (const mail of seed(accounts, now())) await state.deliver(mail);

  const port = options.imapPort ?? (await freePort());
  let server: DovecotServer;
  try {
    server = await DovecotServer.start({ binary: found.binary, dataDir, mailRoot, port, accounts, owner });
  } catch (error) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    return { available: false, reason: (error as Error).message, install: 'check the Dovecot log and configuration' };
  }

  const imap = { host: '127.0.0.1', port, logFile: server.logFile, dataDir };
  const sim = createSimulator({ title: 'Mailbox (Dovecot IMAP)', logger: options.logger });
  registerControlRoutes(sim.app, state, imap);
  sim.addPageSections(() => mailboxSections(state, imap));
  sim.onReset(async () => {
    await state.clear();
    for (const mail of seed(accounts, now())) await state.deliver(mail);
  });
  sim.app.addHook('onClose', async () => {
    await server.stop();
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { ...sim, available: true, state, imap };
}
