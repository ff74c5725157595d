import { chown, mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Who owns the mail files: the user Dovecot's mail processes run as. */
export interface MailOwner {
  uid: number;
  gid: number;
}

export const maildirOf = (mailRoot: string, username: string) => join(mailRoot, username);

export async function createMaildir(dir: string, owner: MailOwner): Promise<void> {
  for (const sub of ['cur', 'new', 'tmp']) await mkdir(join(dir, sub), { recursive: true });
  for (const path of [dir, join(dir, 'cur'), join(dir, 'new'), join(dir, 'tmp')]) await chown(path, owner.uid, owner.gid);
}

let sequence = 0;

/**
 * Delivers like an MDA: write into tmp/, then rename into new/ under a unique maildir name
 * (`<secs>.M<usecs>P<pid>Q<n>.<host>,S=<size>`). The file's mtime is the received time Dovecot
 * reports as INTERNALDATE, so it is set to `at`.
 */
export async function deliverToMaildir(dir: string, raw: Buffer, at: Date, owner: MailOwner): Promise<string> {
  sequence += 1;
  const ms = at.getTime();
  const host = hostname().replaceAll('/', '\\057').replaceAll(':', '\\072');
  const name = `${Math.floor(ms / 1000)}.M${(ms % 1000) * 1000}P${process.pid}Q${sequence}.${host},S=${raw.length}`;
  const temporary = join(dir, 'tmp', name);
  await writeFile(temporary, raw, { mode: 0o600 });
  await chown(temporary, owner.uid, owner.gid);
  await utimes(temporary, at, at);
  const final = join(dir, 'new', name);
  await rename(temporary, final);
  return final;
}

/** Removes every message file (Dovecot sees them as expunged on its next sync). */
export async function emptyMaildir(dir: string): Promise<void> {
  for (const sub of ['cur', 'new', 'tmp']) {
    for (const file of await readdir(join(dir, sub)).catch(() => [] as string[])) await rm(join(dir, sub, file), { force: true });
  }
}
