import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { listen } from '@bo/sim-kit';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMailboxSimulator, DEFAULT_ACCOUNTS, ensureDovecot, type DeliveredMail, type MailboxSimulator } from '../src/app';

const NOW = new Date('2025-03-01T12:00:00Z');
let sim: MailboxSimulator;
let base: string;

beforeAll(async () => {
  const built = await buildMailboxSimulator({ now: () => NOW });
  if (!built.available) throw new Error(`mailbox simulator unavailable: ${built.reason}`);
  sim = built;
  base = await listen(sim.app);
});
afterAll(() => sim?.app.close());

async function signIn(user: string, pass: string): Promise<ImapFlow> {
  const client = new ImapFlow({ host: sim.imap.host, port: sim.imap.port, secure: false, auth: { user, pass }, logger: false });
  await client.connect();
  return client;
}

async function readPart(client: ImapFlow, uid: number, part: string): Promise<string> {
  const { content } = await client.download(String(uid), part, { uid: true });
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listInbox(client: ImapFlow) {
  await client.mailboxOpen('INBOX');
  const messages = [];
  for await (const message of client.fetch('1:*', { uid: true, envelope: true, internalDate: true })) messages.push(message);
  return messages;
}

const deliver = (body: unknown) => fetch(`${base}/__sim/deliver`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('mailbox simulator over IMAP (Dovecot)', () => {
  it('lets every account log in and lists its seeded mails with sender, subject and arrival time', async () => {
    for (const account of DEFAULT_ACCOUNTS) {
      const client = await signIn(account.username, account.password);
      const listed = await listInbox(client);
      const expected = sim.state.messages(account.username);
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(listed.map((m) => m.envelope!.subject)).toEqual(expected.map((m) => m.subject));
      expect(listed.map((m) => `${m.envelope!.from![0].name} <${m.envelope!.from![0].address}>`)).toEqual(expected.map((m) => m.from));
      expect(listed.map((m) => new Date(m.internalDate!).toISOString())).toEqual(expected.map((m) => m.at));
      await client.logout();
    }
  });

  it('serves text and HTML bodies carrying the codes and links', async () => {
    const account = DEFAULT_ACCOUNTS[1];
    const client = await signIn(account.username, account.password);
    const listed = await listInbox(client);
    const expected = sim.state.messages(account.username);
    for (const [i, mail] of expected.entries()) {
      const text = await readPart(client, listed[i].uid, '1');
      const html = await readPart(client, listed[i].uid, '2');
      if (mail.code) expect(text).toContain(mail.code);
      for (const link of mail.links) {
        expect(text).toContain(link.url);
        expect(html).toContain(`href="${link.url.replaceAll('&', '&amp;')}"`);
      }
      expect(html).toMatch(/^<!DOCTYPE html>/);
    }
    const tv = expected.find((m) => m.kind === 'NFX_TV_SIGN_IN_LINK')!;
    expect(tv.links.map((l) => l.label)).toEqual(['Approve', 'Deny']);
    expect(expected.find((m) => m.kind === 'SECURITY_VERIFICATION_CODE')!.blocked).toBe(true);
    await client.logout();
  });

  it('uses 4-digit Netflix sign-in codes and 6-digit codes for the other services', () => {
    const all = sim.state.messages();
    expect(all.find((m) => m.kind === 'NFX_SIGN_IN_CODE')!.code).toMatch(/^\d{4}$/);
    for (const kind of ['DP_OTP', 'AMZ_OTP', 'HLU_OTP', 'MAX_OTP']) expect(all.find((m) => m.kind === kind)!.code).toMatch(/^\d{6}$/);
  });

  it('shows a newly delivered mail to a client that is already connected', async () => {
    const account = DEFAULT_ACCOUNTS[2];
    const client = await signIn(account.username, account.password);
    const before = (await listInbox(client)).length;
    const at = '2025-03-01T12:03:00.000Z';
    const response = await deliver({ account: account.username, kind: 'NFX_SIGN_IN_CODE', at, code: '4821' });
    expect(response.status).toBe(201);
    const { message } = (await response.json()) as { message: DeliveredMail };
    expect(message.file).toMatch(/\/new\/\d+\.M\d+P\d+Q\d+\..+,S=\d+$/);
    const after = await listInbox(client);
    expect(after).toHaveLength(before + 1);
    const newest = after[after.length - 1];
    expect(newest.envelope!.subject).toBe('Netflix: Your sign-in code');
    expect(new Date(newest.internalDate!).toISOString()).toBe(at);
    expect(await readPart(client, newest.uid, '1')).toContain('4821');
    await client.logout();
  });

  it('refuses a wrong password, and journals every sign-in it saw at /__sim/sign-ins', async () => {
    const client = new ImapFlow({ host: sim.imap.host, port: sim.imap.port, secure: false, auth: { user: DEFAULT_ACCOUNTS[0].username, pass: 'wrong-password' }, logger: false });
    const error = await client.connect().then(
      () => null,
      (e: { authenticationFailed?: boolean }) => e,
    );
    client.close();
    expect(error?.authenticationFailed).toBe(true);
    // Dovecot logs a refused sign-in as its connection closes.
    const signInsOf = async () => ((await (await fetch(`${base}/__sim/sign-ins`)).json()) as { signIns: { user: string; ok: boolean }[] }).signIns.filter((s) => s.user === DEFAULT_ACCOUNTS[0].username);
    let signIns = await signInsOf();
    for (const deadline = Date.now() + 5_000; !signIns.some((s) => !s.ok) && Date.now() < deadline; signIns = await signInsOf()) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signIns.filter((s) => !s.ok)).toHaveLength(1);
    expect(signIns.some((s) => s.ok)).toBe(true);
  });

  it('rejects deliveries to unknown accounts or of unknown kinds', async () => {
    expect((await deliver({ account: 'nobody@streamshop.test', kind: 'DP_OTP' })).status).toBe(404);
    expect((await deliver({ account: DEFAULT_ACCOUNTS[0].username, kind: 'BANK_STATEMENT' })).status).toBe(400);
  });

  it('lists accounts and messages under /__sim/ and offers the delivery form', async () => {
    const accounts = (await (await fetch(`${base}/__sim/accounts`)).json()) as { imap: { port: number }; accounts: { username: string }[] };
    expect(accounts.imap.port).toBe(sim.imap.port);
    expect(accounts.accounts.map((a) => a.username)).toEqual(DEFAULT_ACCOUNTS.map((a) => a.username));
    const own = (await (await fetch(`${base}/__sim/accounts/${DEFAULT_ACCOUNTS[0].username}/messages`)).json()) as { messages: DeliveredMail[] };
    expect(own.messages).toEqual(sim.state.messages(DEFAULT_ACCOUNTS[0].username));
    const page = await (await fetch(`${base}/__sim/`)).text();
    expect(page).toContain('<form id="deliver"');
    expect(page).toContain('NFX_UPDATE_HOUSEHOLD');
  });

  it('empties the mailboxes and delivers the seed again on reset', async () => {
    const account = DEFAULT_ACCOUNTS[0];
    await deliver({ account: account.username, kind: 'HLU_OTP' });
    const seeded = sim.state.messages(account.username).length - 1;
    expect((await fetch(`${base}/__sim/reset`, { method: 'POST' })).status).toBe(200);
    expect(sim.state.messages(account.username)).toHaveLength(seeded);
    const client = await signIn(account.username, account.password);
    expect((await listInbox(client)).map((m) => m.envelope!.subject)).toEqual(sim.state.messages(account.username).map((m) => m.subject));
    await client.logout();
  });

  it('finds the installed Dovecot without installing anything', () => {
    expect(ensureDovecot()).toEqual({ available: true, binary: '/usr/sbin/dovecot' });
  });
});

describe('mailbox simulator lifecycle', () => {
  it('stops Dovecot and removes its temp directory when the app closes', async () => {
    const built = await buildMailboxSimulator({ accounts: [{ username: 'solo@streamshop.test', password: 'solo' }], seed: () => [] });
    if (!built.available) throw new Error(built.reason);
    const { port, dataDir } = built.imap;
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user: 'solo@streamshop.test', pass: 'solo' }, logger: false });
    await client.connect();
    expect((await client.status('INBOX', { messages: true })).messages).toBe(0);
    await client.logout();
    await built.app.close();
    const refused = await new Promise<boolean>((resolve) => connect(port, '127.0.0.1').on('connect', () => resolve(false)).on('error', () => resolve(true)));
    expect(refused).toBe(true);
    expect(existsSync(dataDir)).toBe(false);
  });


  it('reports itself unavailable with the install command instead of throwing', async () => {
    const result = await buildMailboxSimulator({ dovecotBinary: '/nonexistent/sbin/dovecot' });
    expect(result).toEqual({ available: false, reason: 'Dovecot is not installed (/nonexistent/sbin/dovecot not found)', install: 'apt-get install -y dovecot-imapd' });
  });
});
