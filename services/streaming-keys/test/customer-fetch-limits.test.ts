import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestReply } from '@bo/platform/testing/services';
import { ACCOUNTS, asCustomer, loginsOf, makeKeys, setMailbox, signInAttemptsOf, startMailbox, type MadeKey } from './customer-support';
import { eventually, startKeysSystem, type KeysSystem } from './system';

// Issue 18 §2: what a customer's clicks may cost. The key interval is the production 30 s; the
// mailbox pause is 4 s here instead of 15 minutes (the same code, a configurable window).
const PAUSE_MS = 4_000;

describe("streaming-keys: a customer's clicks cannot cost more than one mailbox read per key per 30 s, or get the mailbox locked", () => {
  let it_: KeysSystem;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let nfx: MadeKey;
  /** Four profiles of one account whose stored mailbox password is wrong. */
  let locked: MadeKey[];

  const fetchAs = (key: MadeKey, type = 'netflix-signin') => it_.call('POST', '/api/customer/parse-email', { type }, asCustomer(key.email, key.id));
  const retryAfter = (reply: TestReply) => Number(reply.headers.get('retry-after'));

  beforeAll(async () => {
    mailbox = await startMailbox();
    it_ = await startKeysSystem('streaming_keys_fetch_limits', { payments: false, aiChat: true, keysEnv: { MAILBOX_IMAP_URL: mailbox.imapUrl, MAILBOX_PAUSE_MS: String(PAUSE_MS) } });
    [nfx] = await makeKeys(it_, 'NFX', ACCOUNTS.NFX.username, 1);
    await setMailbox(it_, 'NFX', ACCOUNTS.NFX.username, ACCOUNTS.NFX.password);
    locked = await makeKeys(it_, 'NFX', ACCOUNTS.NFX2.username, 4);
    await setMailbox(it_, 'NFX', ACCOUNTS.NFX2.username, 'not-the-mailbox-password');
  });
  afterAll(async () => {
    await it_?.stop();
    await mailbox?.sim.app.close();
  });

  it('reads the mailbox once for twenty clicks on one key at the same moment; a click in the next 30 s is 429 with when to try again', async () => {
    const mail = await mailbox.sim.state.deliver({ account: ACCOUNTS.NFX.username, kind: 'NFX_SIGN_IN_CODE' });
    const logins = await loginsOf(mailbox.sim, ACCOUNTS.NFX.username);
    const clicked = Date.now();
    const replies = await Promise.all(Array.from({ length: 20 }, () => fetchAs(nfx)));
    expect(await loginsOf(mailbox.sim, ACCOUNTS.NFX.username)).toBe(logins + 1);
    // Clicks that came while the read was running share its answer; any later one is told when.
    for (const reply of replies) {
      if (reply.status === 200) expect(reply.body.data).toBe(mail.code);
      else expect(reply).toMatchObject({ status: 429, body: { details: { retryAt: expect.any(String) } } });
    }
    expect(replies.some((reply) => reply.status === 200)).toBe(true);

    for (const type of ['netflix-signin', 'netflix-tv']) {
      const asked = Date.now();
      const again = await fetchAs(nfx, type);
      const answered = Date.now();
      expect(again.status).toBe(429);
      expect(again.body.error).toMatch(/^This key's mailbox was checked a moment ago\. Please try again in \d+ seconds\.$/);
      // 30 s after the read, which was made after the clicks began and before this answer.
      const retryAt = Date.parse(again.body.details.retryAt);
      expect(retryAt).toBeGreaterThanOrEqual(clicked + 30_000);
      expect(retryAt).toBeLessThanOrEqual(answered + 30_000);
      // Retry-After: the seconds left, rounded up, as the service counted them while answering.
      expect(retryAfter(again)).toBeGreaterThanOrEqual(Math.ceil((retryAt - answered) / 1000));
      expect(retryAfter(again)).toBeLessThanOrEqual(Math.ceil((retryAt - asked) / 1000));
    }
    expect(await loginsOf(mailbox.sim, ACCOUNTS.NFX.username)).toBe(logins + 1);
    const log = await it_.keys.prisma.codeFetch.findMany({ where: { keyId: nfx.id, outcome: 'too_soon' } });
    expect(log.length).toBeGreaterThanOrEqual(2);
  });

  it("makes a key's QR code once per interval: a second click gets the same QR, with no new row", async () => {
    const first = await it_.call('POST', `/api/customer/generate-qr/${nfx.id}`, undefined, asCustomer(nfx.email, nfx.id));
    expect(first.status).toBe(200);
    const second = await it_.call('POST', `/api/customer/generate-qr/${nfx.id}`, undefined, asCustomer(nfx.email, nfx.id));
    expect(second).toMatchObject({ status: 200, body: { data: first.body.data } });
    expect(await it_.keys.prisma.streamingQrCode.count({ where: { keyId: nfx.id } })).toBe(1);
  });

  it('stops signing in to a mailbox after 3 failed sign-ins: for the pause no login reaches the mail server, and customers are told when to try again', async () => {
    const user = ACCOUNTS.NFX2.username;
    expect(await signInAttemptsOf(mailbox.sim, user)).toBe(0);
    // Three keys of the account, each its own first click (a key's own interval is not what stops them).
    for (const key of locked.slice(0, 2)) {
      expect(await fetchAs(key)).toMatchObject({ status: 502, body: { error: 'The mailbox of this account refused its password. Please contact the shop.' } });
    }
    const beforeThird = Date.now();
    const third = await fetchAs(locked[2]);
    const pausedAt = Date.now();
    expect(third.status).toBe(503);
    expect(third.body.error).toMatch(/^Signing in to this account's mailbox failed 3 times, so it is left alone for now\. Please try again in \d seconds\.$/);
    // Paused PAUSE_MS from the refused sign-in, which came while the third click was answered.
    expect(Date.parse(third.body.details.retryAt)).toBeGreaterThanOrEqual(beforeThird + PAUSE_MS);
    expect(Date.parse(third.body.details.retryAt)).toBeLessThanOrEqual(pausedAt + PAUSE_MS);
    expect(retryAfter(third)).toBeGreaterThan(0);
    // Dovecot logs a refused sign-in when the client's connection closes, a moment after our answer.
    await eventually(async () => (await signInAttemptsOf(mailbox.sim, user)) >= 3, 5_000, 'the third refused sign-in in the mail server log');
    expect(await signInAttemptsOf(mailbox.sim, user)).toBe(3);

    // The right password now: still nobody signs in until the pause is over, whichever key clicks.
    await setMailbox(it_, 'NFX', user, ACCOUNTS.NFX2.password);
    const paused = await fetchAs(locked[3]);
    expect(paused).toMatchObject({ status: 503, body: { details: { retryAt: third.body.details.retryAt } } });
    const reply = await eventually(async () => {
      const attempt = await fetchAs(locked[3]);
      if (attempt.status === 503) {
        expect(await signInAttemptsOf(mailbox.sim, user)).toBe(3);
        return null;
      }
      return attempt;
    }, PAUSE_MS + 5_000, 'the pause to end');
    expect(Date.now() - pausedAt).toBeGreaterThanOrEqual(PAUSE_MS - 500);
    expect(reply).toMatchObject({ status: 200, body: { success: true } });
    expect(await loginsOf(mailbox.sim, user)).toBe(1);
    const outcomes = (await it_.keys.prisma.codeFetch.findMany({ where: { customerEmail: user }, orderBy: { id: 'asc' } })).map((row) => row.outcome);
    expect(outcomes.slice(0, 4)).toEqual(['mailbox_sign_in_failed', 'mailbox_sign_in_failed', 'mailbox_paused', 'mailbox_paused']);
  });

  it('keeps the fetch log 30 days: its retention job (a platform job of streaming-keys) deletes older rows only', async () => {
    const days = (n: number) => new Date(Date.now() - n * 24 * 3_600_000);
    await it_.keys.prisma.codeFetch.createMany({ data: [31, 40, 20].map((age) => ({ customerEmail: `aged-${age}@example.mn`, parseType: 'netflix-signin', outcome: 'found', createdAt: days(age) })) });
    expect(await it_.keys.exposed.logRetention.sweep()).toEqual({ code_fetches: 2 });
    expect((await it_.keys.prisma.codeFetch.findMany({ where: { customerEmail: { startsWith: 'aged-' } } })).map((row) => row.customerEmail)).toEqual(['aged-20@example.mn']);
  });
});
