import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { MailOwner } from './maildir';

export const DOVECOT_BINARY = '/usr/sbin/dovecot';
export const DOVECOT_INSTALL = 'apt-get install -y dovecot-imapd';

export type DovecotCheck = { available: true; binary: string } | { available: false; reason: string; install: string };

/** Whether the binary exists and runs; why not, when not. */
export function checkDovecot(binary = DOVECOT_BINARY): DovecotCheck {
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    return { available: false, reason: `Dovecot is not installed (${binary} not found)`, install: DOVECOT_INSTALL };
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return { available: false, reason: `${binary} --version failed: ${(version.stderr || version.error?.message || '').trim()}`, install: DOVECOT_INSTALL };
  return { available: true, binary };
}

const hasAptGet = () => spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;

/**
 * Installs Dovecot's IMAP server with apt-get when it is missing and this process may (root, apt
 * present); otherwise reports why the mailbox cannot run. Used by the start command.
 */
export function ensureDovecot(binary = DOVECOT_BINARY): DovecotCheck {
  const found = checkDovecot(binary);
  if (found.available) return found;
  if (process.getuid?.() !== 0) return { ...found, reason: `${found.reason}; not root, so it cannot be installed here` };
  if (!hasAptGet()) return { ...found, reason: `${found.reason}; apt-get is not available` };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', 'dovecot-imapd'], { env, encoding: 'utf8' });
  if (install.status !== 0) {
    // A fresh machine may not have package lists yet.
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8' });
    install = spawnSync('apt-get', ['install', '-y', 'dovecot-imapd'], { env, encoding: 'utf8' });
  }
  if (install.status !== 0) return { ...found, reason: `${found.reason}; apt-get install failed: ${install.stderr.trim().split('\n').pop()}` };
  return checkDovecot(binary);
}

export interface MailAccount {
  username: string;
  password: string;
}

export interface DovecotSetup {
  binary: string;
  dataDir: string;
  mailRoot: string;
  port: number;
  accounts: MailAccount[];
  owner: MailOwner;
}

/** A self-contained configuration: nothing under /etc is read or touched. */
function configText(setup: DovecotSetup): string {
  const { dataDir, port, owner } = setup;
  // As root, Dovecot's packaged users run the login and internal processes; otherwise everything runs as us.
  const users = process.getuid?.() === 0 ? [] : [`default_login_user = ${userInfo().username}`, `default_internal_user = ${userInfo().username}`];
  return `# Written by the mailbox simulator; thrown away with its data directory.
instance_name = bo-mailbox-${port}
base_dir = ${join(dataDir, 'run')}
state_dir = ${join(dataDir, 'state')}
${users.join('\n')}
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = ${join(dataDir, 'dovecot.log')}
first_valid_uid = 1
mail_location = maildir:${setup.mailRoot}/%u
passdb {
  driver = passwd-file
  args = username_format=%u ${join(dataDir, 'passwd')}
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${setup.mailRoot}/%u
}
# No per-IP penalty: every client here is 127.0.0.1, so one wrong password would slow all later logins.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
}

/** Resolves once the server greets with "* OK ... ready." (the first greeting may wait for auth). */
async function waitForGreeting(port: number, exited: () => string | null, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure) throw new Error(failure);
    const ready = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let seen = '';
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(2_000, () => done(false));
      socket.on('data', (chunk) => {
        seen += chunk.toString();
        if (/\* OK .*ready/.test(seen)) done(true);
      });
      socket.on('error', () => done(false));
    });
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Dovecot did not answer on 127.0.0.1:${port} within ${deadlineMs} ms`);
}

/** `dovecot -F -c <our conf>` as a child process. */
export class DovecotServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly logFile: string,
  ) {}

  static async start(setup: DovecotSetup): Promise<DovecotServer> {
    const conf = join(setup.dataDir, 'dovecot.conf');
    await writeFile(join(setup.dataDir, 'passwd'), setup.accounts.map((a) => `${a.username}:{PLAIN}${a.password}`).join('\n') + '\n', { mode: 0o644 });
    await writeFile(conf, configText(setup));
    const child = spawn(setup.binary, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let exit: string | null = null;
    child.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => (exit = `Dovecot exited (${signal ?? code}): ${stderr.trim()}`));
    child.on('error', (error) => (exit = `Dovecot did not start: ${error.message}`));
    // Never leave a server behind when this process ends without stopping it.
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    const server = new DovecotServer(child, setup.port, join(setup.dataDir, 'dovecot.log'));
    try {
      await waitForGreeting(setup.port, () => exit);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** SIGTERM to the master, which stops its own children; waits until it is gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }
}
