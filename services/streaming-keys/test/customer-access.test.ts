import { createLogger } from '@bo/platform';
import { asService } from '@bo/platform/testing/identity';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin } from '@bo/platform/testing/services';
import type { MailboxSimulator } from '@bo/sim-mailbox';
import streamingKeys from '../src/service';
import { ACCOUNTS, asCustomer, loginsOf, makeKeys, sellTo, setMailbox, startMailbox, type MadeKey } from './customer-support';
import { eventually, startKeysSystem, type KeysSystem, type StreamingKeysService } from './system';

const asGateway = asService('gateway');
const BUYER = 'bat@example.mn';
const NFX = ACCOUNTS.NFX.username;
const NFX2 = ACCOUNTS.NFX2.username;

/** A port nothing listens on: ai-chat "down". */
async function closedPort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('streaming-keys: the customer session, its keys and who may fetch codes (ADR 15)', () => {
  let it_: KeysSystem;
  let mailbox: { sim: MailboxSimulator; url: string; imapUrl: string };
  // Two profiles of one shared Netflix account (two customers), one of another Netflix account, a Disney+ key.
  let mine: MadeKey;
  let neighbour: MadeKey;
  let otherAccount: MadeKey;
  let disney: MadeKey;

  const fetchLog = () => it_.keys.prisma.codeFetch.findMany({ orderBy: { id: 'asc' } });
  /** What streaming-keys logged (JSON lines at info and above). */
  const lines: { level: number; msg: string; service?: string; [field: string]: unknown }[] = [];

  beforeAll(async () => {
    mailbox = await startMailbox();
    it_ = await startKeysSystem('streaming_keys_customer_access', {
      payments: false,
      logger: createLogger('customer-access', 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) }),
      // Fetches one after another here: the per-key interval (customer-fetch-limits.test.ts) is set out of the way.
      keysEnv: { MAILBOX_IMAP_URL: mailbox.imapUrl, AI_CHAT_URL: `http://127.0.0.1:${await closedPort()}`, MAILBOX_TIMEOUT_MS: '5000', CODE_FETCH_KEY_INTERVAL_MS: '1' },
    });
    [mine, neighbour] = await makeKeys(it_, 'NFX', NFX, 2);
    [otherAccount] = await makeKeys(it_, 'NFX', NFX2, 1);
    [disney] = await makeKeys(it_, 'DPS', ACCOUNTS.DPS.username, 1);
  });
  afterAll(async () => {
    await it_?.stop();
    await mailbox?.sim.app.close();
  });

  it('signs a customer in with the account e-mail and the key (spaces stripped, any case); a wrong pair is one answer', async () => {
    const signIn = (body: unknown) => it_.call('POST', '/internal/customer/sign-in', body, asGateway);
    const right = await signIn({ email: ` ${NFX.toUpperCase()} `, key: ` ${mine.key.toLowerCase().replace('-', ' - ')}` });
    expect(right).toMatchObject({ status: 200, body: { keyId: mine.id, email: NFX, service: 'NFX', serviceName: 'Netflix', redirectUrl: '/netflix' } });
    expect((await signIn({ email: ACCOUNTS.DPS.username, key: disney.key })).body).toMatchObject({ keyId: disney.id, service: 'DPS', serviceName: 'Disney+', redirectUrl: '/disney' });

    const unknownKey = await signIn({ email: NFX, key: 'SK-AAAAAAAAAA-NFX' });
    const otherEmail = await signIn({ email: NFX2, key: mine.key });
    const buyersEmail = await signIn({ email: BUYER, key: mine.key });
    for (const wrong of [unknownKey, otherEmail, buyersEmail]) expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid email or key' } });

    expect((await signIn({ email: '', key: '' })).body.details).toContainEqual({ field: 'email', message: 'Please enter your email and key' });
    expect((await signIn({ email: NFX, key: 'SK-AAAAAAAAAA-XYZ' })).body.details).toContainEqual({ field: 'key', message: 'The key must end with its service code: -NFX, -DPS, -AMZ, -HLU or -MAX' });
    // Only the gateway asks: a customer or an admin calling it directly is refused by the platform.
    expect((await it_.call('POST', '/internal/customer/sign-in', { email: NFX, key: mine.key }, asCustomer(NFX, mine.id))).status).toBe(403);
    expect((await it_.call('POST', '/internal/customer/sign-in', { email: NFX, key: mine.key }, asAdmin)).status).toBe(403);
  });

  it('lets an expired or deactivated key sign in (the page shows its expiry)', async () => {
    const [expired, inactive] = await makeKeys(it_, 'HLU', ACCOUNTS.HLU.username, 2);
    await it_.keys.prisma.streamingKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
    await it_.keys.prisma.streamingKey.update({ where: { id: inactive.id }, data: { isActive: 0 } });
    for (const key of [expired, inactive]) {
      expect((await it_.call('POST', '/internal/customer/sign-in', { email: ACCOUNTS.HLU.username, key: key.key }, asGateway))).toMatchObject({ status: 200, body: { keyId: key.id } });
    }
    const keys = await it_.call('GET', '/api/customer/keys', undefined, asCustomer(ACCOUNTS.HLU.username, expired.id));
    expect(keys.body.keys).toEqual([expect.objectContaining({ id: expired.id, status: 'Expired', servicePath: '/hulu' })]);
  });

  it("shows a session its own key only: never a neighbour's profile of the same account, nor a key of another account", async () => {
    const listed = await it_.call('GET', '/api/customer/keys', undefined, asCustomer(NFX, mine.id));
    expect(listed).toMatchObject({ status: 200, body: { success: true } });
    expect(listed.body.keys).toEqual([
      { id: mine.id, key: mine.key, service: 'NFX', serviceName: 'Netflix', email: NFX, profileNumber: 1, expiresAt: expect.any(String), status: 'Active', servicePath: '/netflix' },
    ]);
    // A session whose key id is not a key of its e-mail sees nothing (a forged or stale session).
    expect((await it_.call('GET', '/api/customer/keys', undefined, asCustomer(NFX, otherAccount.id))).body.keys).toEqual([]);
    expect((await it_.call('GET', '/api/customer/keys', undefined, asCustomer(NFX2, mine.id))).body.keys).toEqual([]);
    expect((await it_.call('GET', '/api/customer/keys', undefined, asCustomer(NFX, 999_999))).body.keys).toEqual([]);
  });

  it("shows a session without a key id the keys its e-mail bought, never every profile of a shared account", async () => {
    await sellTo(it_, mine.id, BUYER);
    await sellTo(it_, disney.id, 'BAT@example.mn');
    await sellTo(it_, neighbour.id, 'someone.else@example.mn');
    const listed = await it_.call('GET', '/api/customer/keys', undefined, asCustomer(BUYER, null));
    expect(listed.body.keys.map((key: { id: number }) => key.id).sort()).toEqual([mine.id, disney.id].sort());
    // The shared account e-mail is never enough: it is every customer's of that account.
    expect((await it_.call('GET', '/api/customer/keys', undefined, asCustomer(NFX, null))).body.keys).toEqual([]);
  });

  it("makes QR codes of the session's own key only; a neighbour's, another account's and an unknown id are the same 404", async () => {
    const qr = await it_.call('POST', `/api/customer/generate-qr/${mine.id}`, undefined, asCustomer(NFX, mine.id));
    expect(qr).toMatchObject({ status: 200, body: { success: true, data: { keyId: mine.id, qrCodeData: expect.stringMatching(/^data:image\/png;base64,/) } } });
    expect(await it_.keys.prisma.streamingQrCode.count({ where: { keyId: mine.id } })).toBe(1);
    for (const id of [neighbour.id, otherAccount.id, 999_999]) {
      expect(await it_.call('POST', `/api/customer/generate-qr/${id}`, undefined, asCustomer(NFX, mine.id))).toMatchObject({ status: 404, body: { error: 'Key not found' } });
    }
    // The buyer's session (no key id) reaches its bought keys, not the neighbour's.
    expect((await it_.call('POST', `/api/customer/generate-qr/${disney.id}`, undefined, asCustomer(BUYER, null))).status).toBe(200);
    expect((await it_.call('POST', `/api/customer/generate-qr/${neighbour.id}`, undefined, asCustomer(BUYER, null))).status).toBe(404);
    expect(await it_.keys.prisma.streamingQrCode.count({ where: { keyId: { in: [neighbour.id, otherAccount.id] } } })).toBe(0);
  });

  it("fetches codes for the session's own key only: a foreign key id is 404 and reads no mailbox", async () => {
    await setMailbox(it_, 'NFX', NFX, ACCOUNTS.NFX.password);
    await setMailbox(it_, 'NFX', NFX2, ACCOUNTS.NFX2.password);
    const before = [await loginsOf(mailbox.sim, NFX), await loginsOf(mailbox.sim, NFX2)];
    for (const keyId of [neighbour.id, otherAccount.id, 999_999]) {
      const fetched = await it_.call('POST', '/api/customer/parse-email', { type: 'netflix-signin', keyId }, asCustomer(NFX, mine.id));
      expect(fetched, `key ${keyId}`).toMatchObject({ status: 404, body: { error: 'Key not found' } });
    }
    expect((await it_.call('POST', '/api/customer/parse-email', { type: 'netflix-signin', keyId: neighbour.id }, asCustomer(BUYER, null))).status).toBe(404);
    expect([await loginsOf(mailbox.sim, NFX), await loginsOf(mailbox.sim, NFX2)]).toEqual(before);
  });

  it("refuses admins on the customer routes (they have no keys) and anonymous callers", async () => {
    const calls: [string, string, unknown][] = [
      ['GET', '/api/customer/keys', undefined],
      ['POST', `/api/customer/generate-qr/${mine.id}`, undefined],
      ['POST', '/api/customer/parse-email', { type: 'netflix-signin', keyId: mine.id }],
    ];
    for (const [method, path, body] of calls) {
      expect(await it_.call(method, path, body, asAdmin), `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'Customer session required' } });
      expect((await it_.call(method, path, body, {})).status, `${method} ${path}`).toBe(401);
      expect((await it_.call(method, path, body, asGateway)).status, `${method} ${path}`).toBe(403);
    }
  });

  it('refuses a fetch of another service than the key\'s, and asks which key when the session has several', async () => {
    expect(await it_.call('POST', '/api/customer/parse-email', { type: 'disney-otp' }, asCustomer(NFX, mine.id))).toMatchObject({ status: 400, body: { error: 'This key is for Netflix' } });
    expect(await it_.call('POST', '/api/customer/parse-email', { type: 'unknown' }, asCustomer(NFX, mine.id))).toMatchObject({ status: 400 });
    // The buyer has a Netflix and a Disney+ key: the type picks the Netflix one. With two Netflix keys it must be told.
    await sellTo(it_, otherAccount.id, BUYER);
    expect(await it_.call('POST', '/api/customer/parse-email', { type: 'netflix-signin' }, asCustomer(BUYER, null))).toMatchObject({ status: 400, body: { error: 'Choose which key' } });
  });

  it('refuses an expired or deactivated key with 403 without signing in to the mailbox', async () => {
    const [expired, inactive] = await makeKeys(it_, 'MAX', ACCOUNTS.MAX.username, 2);
    await setMailbox(it_, 'MAX', ACCOUNTS.MAX.username, ACCOUNTS.MAX.password);
    await mailbox.sim.state.deliver({ account: ACCOUNTS.MAX.username, kind: 'MAX_OTP' });
    await it_.keys.prisma.streamingKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await it_.keys.prisma.streamingKey.update({ where: { id: inactive.id }, data: { isActive: 0 } });
    const before = await loginsOf(mailbox.sim, ACCOUNTS.MAX.username);
    expect(await it_.call('POST', '/api/customer/parse-email', { type: 'max-otp' }, asCustomer(ACCOUNTS.MAX.username, expired.id))).toMatchObject({ status: 403, body: { error: 'Your key has expired' } });
    expect(await it_.call('POST', '/api/customer/parse-email', { type: 'max-otp' }, asCustomer(ACCOUNTS.MAX.username, inactive.id))).toMatchObject({ status: 403, body: { error: 'Your key is not active' } });
    expect(await loginsOf(mailbox.sim, ACCOUNTS.MAX.username)).toBe(before);
  });

  it('answers 503 while the account has no mailbox password, 502 when the mailbox refuses it (logged once, at warn, with what to do), 503 when ai-chat is down', async () => {
    const [amz] = await makeKeys(it_, 'AMZ', ACCOUNTS.AMZ.username, 1);
    const fetchAmz = () => it_.call('POST', '/api/customer/parse-email', { type: 'prime-otp' }, asCustomer(ACCOUNTS.AMZ.username, amz.id));
    expect(await fetchAmz()).toMatchObject({ status: 503, body: { error: 'The mailbox of this account is not set up yet. Please contact the shop.' } });
    expect(await loginsOf(mailbox.sim, ACCOUNTS.AMZ.username)).toBe(0);

    await setMailbox(it_, 'AMZ', ACCOUNTS.AMZ.username, 'not-the-mailbox-password');
    const from = lines.length;
    expect(await fetchAmz()).toMatchObject({ status: 502, body: { error: 'The mailbox of this account refused its password. Please contact the shop.' } });
    // An outside state the shop fixes, not a bug: one warning naming the mailbox and what to do, no error line.
    const logged = lines.slice(from).filter((line) => line.service === 'streaming-keys' && line.msg !== 'code fetch');
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    expect(logged.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({ mailbox: ACCOUNTS.AMZ.username, msg: `the mailbox of ${ACCOUNTS.AMZ.username} refused its password: set the account's mailbox password on /streaming-keys` }),
    ]);
    // Refused again: the same answer, and nothing new to say.
    expect(await fetchAmz()).toMatchObject({ status: 502, body: { error: 'The mailbox of this account refused its password. Please contact the shop.' } });
    expect(lines.slice(from).filter((line) => line.service === 'streaming-keys' && line.level >= 40)).toHaveLength(1);

    // The right password: the mailbox is read, then the parser cannot be reached.
    await setMailbox(it_, 'AMZ', ACCOUNTS.AMZ.username, ACCOUNTS.AMZ.password);
    await mailbox.sim.state.deliver({ account: ACCOUNTS.AMZ.username, kind: 'AMZ_OTP' });
    expect(await fetchAmz()).toMatchObject({ status: 503, body: { error: 'The code service is unavailable. Please try again in a minute.' } });
    expect(await loginsOf(mailbox.sim, ACCOUNTS.AMZ.username)).toBe(1);
    expect(lines.slice(from).filter((line) => line.service === 'streaming-keys' && line.level === 30 && line.mailbox === ACCOUNTS.AMZ.username).map((line) => line.msg)).toEqual([
      `the mailbox of ${ACCOUNTS.AMZ.username} takes its password again`,
    ]);
  });

  it('logs every fetch, refused ones too, with who, which key, the type and how it ended', async () => {
    const rows = await fetchLog();
    const outcomes = rows.map((row) => `${row.customerEmail} ${row.keyId} ${row.parseType} ${row.outcome} ${row.found}`);
    expect(outcomes).toEqual([
      `${NFX} null netflix-signin key_not_found false`,
      `${NFX} null netflix-signin key_not_found false`,
      `${NFX} null netflix-signin key_not_found false`,
      `${BUYER} null netflix-signin key_not_found false`,
      `${NFX} ${mine.id} disney-otp wrong_service false`,
      `${BUYER} null netflix-signin choose_key false`,
      expect.stringMatching(new RegExp(`^${ACCOUNTS.MAX.username} \\d+ max-otp key_expired false$`)),
      expect.stringMatching(new RegExp(`^${ACCOUNTS.MAX.username} \\d+ max-otp key_inactive false$`)),
      expect.stringMatching(/ prime-otp no_mailbox_password false$/),
      expect.stringMatching(/ prime-otp mailbox_sign_in_failed false$/),
      expect.stringMatching(/ prime-otp mailbox_sign_in_failed false$/),
      expect.stringMatching(/ prime-otp parser_unavailable false$/),
    ]);
    // An admin's refused call and an invalid body are not fetches.
    expect(rows.every((row) => row.source === null)).toBe(true);
  });

  it("stores an account's mailbox password sealed, shows it masked, and makes the account when it has no keys yet", async () => {
    const view = await setMailbox(it_, 'NFX', 'nfx.new@streamshop.test', 'New-Mailbox-2026');
    expect(view).toEqual({ email: 'nfx.new@streamshop.test', service: 'NFX', passwordSet: false, passwordMasked: '', passwordUnreadable: null, passwordUpdatedAt: null, mailboxPasswordSet: true, mailboxPasswordMasked: '••••2026', mailboxPasswordUnreadable: null });
    const stored = await it_.keys.prisma.streamingAccount.findUniqueOrThrow({ where: { email_service: { email: 'nfx.new@streamshop.test', service: 'NFX' } } });
    expect(stored.mailboxPassword).not.toContain('New-Mailbox-2026');
    expect(stored.mailboxPasswordUpdatedAt).toBeInstanceOf(Date);
    const listed = await it_.call('GET', '/api/streaming-accounts?service=NFX');
    expect(listed.body.data.find((account: { email: string }) => account.email === NFX)).toMatchObject({ mailboxPasswordSet: true, mailboxPasswordMasked: '••••pass' });
    expect(listed.body.data.find((account: { email: string }) => account.email === 'nfx.new@streamshop.test')).toMatchObject({ mailboxPasswordSet: true });
    expect((await it_.call('PUT', '/api/streaming-accounts/mailbox', { service: 'NFX', email: NFX, mailboxPassword: 'x' }, asCustomer(NFX, mine.id))).status).toBe(403);
    expect((await it_.call('PUT', '/api/streaming-accounts/mailbox', { service: 'NFX', email: NFX, mailboxPassword: 'x', password: 'y' })).status).toBe(400);
  });

  it('shows the mailbox server and ai-chat on the config-status page, and answers 503 when code fetching is not configured', async () => {
    const items = (await it_.call('GET', '/internal/streaming-keys/config-status', undefined, asGateway)).body.items as { name: string; configured: boolean; simulated: boolean; error?: string }[];
    expect(items.find((item) => item.name.startsWith('Mailbox server'))).toMatchObject({ configured: true, simulated: true });
    expect(items.find((item) => item.name.startsWith('AI chat service'))).toMatchObject({ configured: false, error: expect.stringContaining('ai-chat is not reachable') });

    await it_.keys.stop();
    it_.keys = await it_.system.start<StreamingKeysService>(streamingKeys as never, {});
    const fetched = await it_.call('POST', '/api/customer/parse-email', { type: 'netflix-signin' }, asCustomer(NFX, mine.id));
    expect(fetched).toMatchObject({ status: 503, body: { error: 'Code fetching is not configured' } });
    const unset = (await it_.call('GET', '/internal/streaming-keys/config-status', undefined, asGateway)).body.items as { name: string; configured: boolean }[];
    expect(unset.find((item) => item.name.startsWith('Mailbox server'))).toMatchObject({ configured: false });
  });

  it('gives up on a mailbox server that never answers after MAILBOX_TIMEOUT_MS, and closes the connection', async () => {
    const sockets: Socket[] = [];
    const closed: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('close', () => closed.push(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await it_.keys.stop();
      const { port } = silent.address() as { port: number };
      it_.keys = await it_.system.start<StreamingKeysService>(streamingKeys as never, { MAILBOX_IMAP_URL: `imap://127.0.0.1:${port}`, MAILBOX_TIMEOUT_MS: '1000', AI_CHAT_URL: 'http://127.0.0.1:9' });
      const started = performance.now();
      const fetched = await it_.call('POST', '/api/customer/parse-email', { type: 'netflix-signin' }, asCustomer(NFX, mine.id));
      // The server never says a word: the answer came from the service giving up, after waiting its
      // MAILBOX_TIMEOUT_MS for the server (not failing at once).
      expect(fetched).toMatchObject({ status: 503, body: { error: 'The mailbox could not be reached. Please try again in a minute.' } });
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_000 - 5);
      expect(sockets).toHaveLength(1);
      await eventually(() => closed.length === 1, 3_000, 'the connection to be closed');
      expect((await fetchLog()).at(-1)).toMatchObject({ keyId: mine.id, outcome: 'mailbox_unavailable', found: false });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
