import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailboxSimulator, MailKind } from '@bo/sim-mailbox';
import type { RunningService } from '@bo/platform/service';
import type { ServiceCode } from '@bo/proto';
import { ACCOUNTS, asCustomer, loginsOf, logoutsOf, makeKeys, minutesAgo, setMailbox, startMailbox, type MadeKey } from './customer-support';
import { eventually, startKeysSystem, type KeysSystem } from './system';

type Account = keyof typeof ACCOUNTS;
const SERVICE_OF: Record<Account, ServiceCode> = { NFX: 'NFX', NFX2: 'NFX', DPS: 'DPS', AMZ: 'AMZ', HLU: 'HLU', MAX: 'MAX' };

/** The value of a counter, or of a histogram's count for the labels, in a service's /metrics registry. */
async function metricValue(service: RunningService, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = service.app.metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  // A histogram's values are its buckets, sum and count, each named; a counter's value has no name.
  const values = (await metric.get()).values as { value: number; labels: Record<string, string | number>; metricName?: string }[];
  const counted = values.some((value) => value.metricName === `${name}_count`) ? values.filter((value) => value.metricName === `${name}_count`) : values;
  return counted.filter((value) => Object.entries(labels).every(([label, wanted]) => String(value.labels[label]) === wanted)).reduce((sum, value) => sum + value.value, 0);
}

describe("streaming-keys: a customer's code fetch from the account's mailbox (Dovecot) parsed by ai-chat (ADR 15)", () => {
  let it_: KeysSystem;
  let mailbox: { sim: MailboxSimulator; url: string; imapUrl: string };
  const keys = {} as Record<Account, MadeKey>;
  const delivered: string[] = [];

  const fetchAs = (account: Account, type: string) => it_.call('POST', '/api/customer/parse-email', { type }, asCustomer(ACCOUNTS[account].username, keys[account].id));
  const deliver = async (account: Account, kind: MailKind, at?: Date) => {
    const mail = await mailbox.sim.state.deliver({ account: ACCOUNTS[account].username, kind, at });
    delivered.push(...(mail.code ? [mail.code] : []), ...mail.links.map((link) => link.url));
    return mail;
  };
  /** ai-chat's parse requests so far, and the mails streaming-keys downloaded so far. */
  const counts = async () => ({
    parses: await metricValue(it_.aiChat!, 'http_request_duration_seconds', { route: '/internal/email-parser/parse' }),
    downloads: await metricValue(it_.keys, 'code_fetch_mails_downloaded_total'),
    remembered: await metricValue(it_.keys, 'code_fetch_remembered_total'),
  });

  beforeAll(async () => {
    mailbox = await startMailbox();
    // Fetches one after another here: the per-key interval (customer-fetch-limits.test.ts) is set out of the way.
    it_ = await startKeysSystem('streaming_keys_customer_fetch', { payments: false, aiChat: true, keysEnv: { MAILBOX_IMAP_URL: mailbox.imapUrl, CODE_FETCH_KEY_INTERVAL_MS: '1' } });
    for (const account of Object.keys(ACCOUNTS) as Account[]) {
      const service = SERVICE_OF[account];
      [keys[account]] = await makeKeys(it_, service, ACCOUNTS[account].username, 1);
      await setMailbox(it_, service, ACCOUNTS[account].username, ACCOUNTS[account].password);
    }
  });
  afterAll(async () => {
    await it_?.stop();
    await mailbox?.sim.app.close();
  });
  beforeEach(async () => {
    await mailbox.sim.state.clear();
  });

  it('finds the Netflix sign-in code delivered now, the one the simulator sent, without marking the mail read', async () => {
    const mail = await deliver('NFX', 'NFX_SIGN_IN_CODE');
    const fetched = await fetchAs('NFX', 'netflix-signin');
    expect(fetched).toMatchObject({ status: 200, body: { success: true, data: mail.code, result: { found: true, outcome: 'found', code: mail.code, source: 'expressions' } } });

    const client = new ImapFlow({ host: mailbox.sim.imap.host, port: mailbox.sim.imap.port, secure: false, auth: { user: ACCOUNTS.NFX.username, pass: ACCOUNTS.NFX.password }, logger: false });
    await client.connect();
    // The server has WITHIN, so imapflow's `since` goes out as SEARCH YOUNGER (to the second, not the day).
    expect(client.capabilities.has('WITHIN')).toBe(true);
    await client.mailboxOpen('INBOX', { readOnly: true });
    const flags = [];
    for await (const message of client.fetch('1:*', { flags: true })) flags.push(...(message.flags ?? []));
    expect(flags).not.toContain('\\Seen');
    await client.logout();
  });

  it('refuses a password-reset mail with the reason, and shows nothing of it', async () => {
    const reset = await deliver('NFX', 'PASSWORD_RESET');
    const fetched = await fetchAs('NFX', 'netflix-signin');
    expect(fetched).toMatchObject({ status: 200, body: { data: null, result: { found: false, outcome: 'blocked', blockedType: 'PASSWORD_RESET', code: null, links: [] } } });
    expect(fetched.body.result.reason).toMatch(/password reset/i);
    expect(fetched.body.result.message_mn).not.toBe('');
    expect(JSON.stringify(fetched.body)).not.toContain(reset.links[0].url);
  });

  it('reads only the last 15 minutes: a code from 16 minutes ago is not read, one from 14 minutes ago is', async () => {
    const before = await counts();
    await deliver('NFX', 'NFX_SIGN_IN_CODE', minutesAgo(16));
    const old = await fetchAs('NFX', 'netflix-signin');
    expect(old).toMatchObject({ status: 200, body: { data: null, result: { outcome: 'no_recent_emails' } } });
    expect((await counts()).downloads).toBe(before.downloads);

    const recent = await deliver('NFX', 'NFX_SIGN_IN_CODE', minutesAgo(14));
    expect((await fetchAs('NFX', 'netflix-signin')).body).toMatchObject({ data: recent.code, result: { outcome: 'found' } });
  });

  it("ignores a mail from another service's sender in the account's mailbox", async () => {
    await deliver('NFX', 'DP_OTP');
    await deliver('NFX', 'MAX_OTP');
    const fetched = await fetchAs('NFX', 'netflix-signin');
    expect(fetched).toMatchObject({ status: 200, body: { data: null, result: { outcome: 'no_recent_emails' } } });
  });

  it('gives the TV sign-in approve and deny links, and the temporary-access and household links', async () => {
    const tv = await deliver('NFX', 'NFX_TV_SIGN_IN_LINK');
    const approve = tv.links.find((link) => link.label === 'Approve')!.url;
    const deny = tv.links.find((link) => link.label === 'Deny')!.url;
    expect((await fetchAs('NFX', 'netflix-tv')).body).toMatchObject({ success: true, data: { approval: [approve], denial: [deny] }, result: { outcome: 'found' } });

    const temporary = await deliver('NFX', 'NFX_TEMPORARY_ACCESS_CODE');
    expect((await fetchAs('NFX', 'netflix-temp')).body).toMatchObject({ data: [temporary.links[0].url], result: { outcome: 'found' } });
    const household = await deliver('NFX', 'NFX_UPDATE_HOUSEHOLD');
    expect((await fetchAs('NFX', 'netflix-household')).body).toMatchObject({ data: [household.links[0].url], result: { outcome: 'found' } });
  });

  it.each([
    ['DPS', 'DP_OTP', 'disney-otp'],
    ['AMZ', 'AMZ_OTP', 'prime-otp'],
    ['HLU', 'HLU_OTP', 'hulu-otp'],
    ['MAX', 'MAX_OTP', 'max-otp'],
  ] as const)('finds the %s one-time code (%s)', async (account, kind, type) => {
    const mail = await deliver(account, kind);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(await fetchAs(account, type)).toMatchObject({ status: 200, body: { success: true, data: mail.code, result: { found: true, code: mail.code } } });
  });

  it('answers a repeat fetch with no new mail from memory: envelopes only, nothing downloaded, ai-chat not asked; a new mail changes the answer', async () => {
    const first = await deliver('NFX', 'NFX_SIGN_IN_CODE', minutesAgo(3));
    const start = await counts();
    const logins = await loginsOf(mailbox.sim, ACCOUNTS.NFX.username);
    expect((await fetchAs('NFX', 'netflix-signin')).body.data).toBe(first.code);
    expect(await counts()).toEqual({ parses: start.parses + 1, downloads: start.downloads + 1, remembered: start.remembered });

    expect((await fetchAs('NFX', 'netflix-signin')).body.data).toBe(first.code);
    expect(await counts()).toEqual({ parses: start.parses + 1, downloads: start.downloads + 1, remembered: start.remembered + 1 });
    // The mailbox was still read (its envelopes): a new mail must be seen.
    expect(await loginsOf(mailbox.sim, ACCOUNTS.NFX.username)).toBe(logins + 2);

    const second = await deliver('NFX', 'NFX_SIGN_IN_CODE');
    expect(second.code).not.toBe(first.code);
    expect((await fetchAs('NFX', 'netflix-signin')).body.data).toBe(second.code);
    // Only the new mail is downloaded: the older one is remembered decoded.
    expect(await counts()).toEqual({ parses: start.parses + 2, downloads: start.downloads + 2, remembered: start.remembered + 1 });
    // Every read signed out of the mailbox.
    const signedIn = await loginsOf(mailbox.sim, ACCOUNTS.NFX.username);
    await eventually(async () => (await logoutsOf(mailbox.sim, ACCOUNTS.NFX.username)) === signedIn, 3_000, 'a LOGOUT for every login');
  });

  it('signs in to the mailbox once for twenty fetches at the same moment (two tabs, impatient presses), and each gets the code and its log row', async () => {
    const mail = await deliver('NFX', 'NFX_SIGN_IN_CODE');
    const logins = await loginsOf(mailbox.sim, ACCOUNTS.NFX.username);
    const shared = await metricValue(it_.keys, 'code_fetch_shared_total');
    const rowsBefore = await it_.keys.prisma.codeFetch.count();
    const replies = await Promise.all(Array.from({ length: 20 }, () => fetchAs('NFX', 'netflix-signin')));
    expect(replies.map((reply) => reply.body.data)).toEqual(Array(20).fill(mail.code));
    // The first read was in flight when the others arrived; a late one may start another read, never one each.
    expect(await loginsOf(mailbox.sim, ACCOUNTS.NFX.username)).toBeLessThanOrEqual(logins + 3);
    expect(await metricValue(it_.keys, 'code_fetch_shared_total')).toBeGreaterThanOrEqual(shared + 17);
    expect(await it_.keys.prisma.codeFetch.count()).toBe(rowsBefore + 20);
  });

  it('asks again when the answer depended on an AI that did not answer (no provider is set up here)', async () => {
    await deliver('NFX', 'NFX_UPDATE_HOUSEHOLD');
    const start = await counts();
    for (let i = 0; i < 2; i++) expect((await fetchAs('NFX', 'netflix-signin')).body).toMatchObject({ data: null, result: { outcome: 'unavailable' } });
    expect(await counts()).toEqual({ parses: start.parses + 2, downloads: start.downloads + 1, remembered: start.remembered });
  });

  it('keeps a log row per fetch with who, which key, type and outcome, and never a code or link', async () => {
    const mail = await deliver('HLU', 'HLU_OTP');
    await fetchAs('HLU', 'hulu-otp');
    const last = await it_.keys.prisma.codeFetch.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(last).toMatchObject({ customerEmail: ACCOUNTS.HLU.username, keyId: keys.HLU.id, parseType: 'hulu-otp', outcome: 'found', found: true, source: 'expressions' });

    // Every column but the time: a random 4-digit code is sometimes this year's number (2026 failed in 2026).
    const rows = await it_.keys.prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT (to_jsonb(f) - 'created_at')::text AS row FROM streaming_keys.code_fetches f`);
    const table = rows.map((row) => JSON.stringify(JSON.parse(row.row))).join('\n');
    expect(rows.length).toBeGreaterThan(10);
    expect(table).toContain('"outcome":"no_recent_emails"');
    expect(table).toContain('"source":"remembered"');
    expect(delivered).toContain(mail.code);
    for (const secret of delivered) expect(table, secret).not.toContain(secret);
  });

  it('still finds a fresh code in a mailbox of 5,000 older mails', { timeout: 180_000 }, async () => {
    // The fresh code first, so the 5,000 older mails get higher UIDs: only a search by arrival
    // time (YOUNGER), not by UID or by day, finds it among them.
    const fresh = await deliver('NFX', 'NFX_SIGN_IN_CODE', minutesAgo(1));
    expect((await fetchAs('NFX', 'netflix-signin')).body.data).toBe(fresh.code);
    const kinds: MailKind[] = ['NFX_SIGN_IN_CODE', 'NFX_TEMPORARY_ACCESS_CODE', 'NFX_UPDATE_HOUSEHOLD', 'PASSWORD_RESET', 'DP_OTP'];
    for (let i = 0; i < 5_000; i++) await mailbox.sim.state.deliver({ account: ACCOUNTS.NFX.username, kind: kinds[i % kinds.length], at: minutesAgo(16 + (i % 600)) });
    const start = await counts();
    expect((await fetchAs('NFX', 'netflix-signin')).body).toMatchObject({ data: fresh.code, result: { outcome: 'found' } });
    expect((await counts()).downloads).toBe(start.downloads);

    const newer = await deliver('NFX', 'NFX_SIGN_IN_CODE');
    expect((await fetchAs('NFX', 'netflix-signin')).body).toMatchObject({ data: newer.code, result: { outcome: 'found' } });
    expect((await counts()).downloads).toBe(start.downloads + 1);
  });
});
