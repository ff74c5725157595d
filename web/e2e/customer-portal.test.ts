import type { EmbeddedSystem } from '@bo/embedded';
import type { ParseResult } from '@bo/proto';
import { DEFAULT_ACCOUNTS } from '@bo/sim-mailbox/seed';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerSetup, deliverMail, startOfTodayInUlaanbaatar, type CreatedKey } from './customer-support';
import { sidewaysOverflow } from './qpay-support';
import { animationsDone, newContext, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

/**
 * The customer portal against the embedded system: keys made by an admin, the accounts' mailboxes
 * in the mailbox simulator (a real IMAP server), the customer's browser signed in with nothing
 * but the account e-mail and the key.
 */
let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let mailboxUrl: string;

/** Three of the simulator's mailboxes, each the account e-mail of one Netflix key. */
const [codes, expired, refused] = DEFAULT_ACCOUNTS;
let codesKey: CreatedKey;
/** Another profile of the same account: its own key, its own turn to fetch. */
let tvKey: CreatedKey;
let expiredKey: CreatedKey;
let refusedKey: CreatedKey;
/** An account whose stored mailbox password the mail server refuses: three keys, three sign-ins. */
const pausedAccount = 'netflix.paused@streamshop.test';
let pausedKeys: CreatedKey[];

beforeAll(async () => {
  suite = await startBrowserSuite('customer-portal');
  ({ system, browser } = suite);
  const mailbox = system.simulators.mailbox;
  if (!mailbox) throw new Error(`the mailbox simulator is not running: ${system.unavailable.mailbox ?? 'unknown reason'}`);
  mailboxUrl = mailbox.url;

  const { context, page } = await signedIn(browser, system.url);
  try {
    const setup = customerSetup(page, system.url);
    codesKey = await setup.createKey('NFX', codes.username, { months: 1 });
    tvKey = await setup.createKey('NFX', codes.username, { months: 1 });
    pausedKeys = [];
    for (let i = 0; i < 3; i++) pausedKeys.push(await setup.createKey('NFX', pausedAccount, { months: 1 }));
    await setup.setMailboxPassword('NFX', pausedAccount, 'not-the-mailbox-password');
    expiredKey = await setup.createKey('NFX', expired.username, { expiresAt: startOfTodayInUlaanbaatar() });
    refusedKey = await setup.createKey('NFX', refused.username, { months: 1 });
    for (const account of [codes, expired, refused]) await setup.setMailboxPassword('NFX', account.username, account.password);
  } finally {
    await context.close();
  }
});
afterAll(() => suite?.stop());

const loginLink = (email: string, key: string) => `${system.url}/customer-login?email=${encodeURIComponent(email)}&key=${encodeURIComponent(key)}`;
const card = (page: Page, type: string) => page.locator(`[data-card="${type}"]`);

/** Presses a card's fetch button and returns the server's reply as the page received it. */
async function fetchCard(page: Page, type: string, button: string): Promise<{ status: number; body: { result?: ParseResult; error?: string; details?: { retryAt: string } } }> {
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/customer/parse-email' && candidate.request().method() === 'POST', { timeout: 30_000 }),
    card(page, type).getByRole('button', { name: button, exact: true }).click(),
  ]);
  return { status: response.status(), body: await response.json() };
}

async function customerPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, width);
  return { context, page: await context.newPage() };
}

describe('the customer portal', () => {
  it('signs in once from a link with email and key, lands on /netflix, and fetches exactly the code just mailed; a second fetch within 30 s says when to try again; QR, language, another page, logout', async () => {
    const signIn = await deliverMail(mailboxUrl, codes.username, 'NFX_SIGN_IN_CODE', '7315');
    expect(signIn.code).toBe('7315');
    const { context, page } = await customerPage(widths.desktop);
    const logins: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/customer/login-direct') logins.push(request.postData() ?? '');
    });

    await page.goto(loginLink(` ${codes.username} `, codesKey.key.toLowerCase()));
    await page.waitForURL(`${system.url}/netflix`);
    await page.getByRole('heading', { level: 1, name: 'Netflix' }).waitFor();
    // Once, with the spaces stripped; the key is not left in the address bar.
    expect(logins.map((body) => JSON.parse(body))).toEqual([{ email: codes.username, key: codesKey.key.toLowerCase() }]);
    expect(page.url()).not.toContain(codesKey.key);

    expect(await page.getByTestId('key-text').textContent()).toBe(codesKey.key);
    expect(await page.getByTestId('key-email').textContent()).toBe(codes.username);
    expect(await page.getByTestId('key-profile').textContent()).toBe(`Profile ${codesKey.profileNumber}`);
    expect(await page.getByTestId('key-expiry').getAttribute('data-tone')).toBe('ok');
    expect(await page.locator('[data-card]').evaluateAll((cards) => cards.map((element) => element.getAttribute('data-card')))).toEqual([
      'netflix-signin', 'netflix-temp', 'netflix-household', 'netflix-tv',
    ]);

    // The sign-in code: the one just delivered (the seed's older one is in the mailbox too).
    const fetched = await fetchCard(page, 'netflix-signin', 'Get code');
    expect(fetched).toMatchObject({ status: 200, body: { data: '7315' } });
    expect(await card(page, 'netflix-signin').getByTestId('fetched-code').textContent()).toBe('7315');
    await card(page, 'netflix-signin').getByRole('button', { name: 'Copy the code' }).waitFor();

    // The key fetched a moment ago: another card's fetch is refused for now, and the card says when (issue 18: one read per key per 30 s).
    const tooSoon = await fetchCard(page, 'netflix-tv', 'Get links');
    expect(tooSoon.status).toBe(429);
    const wait = card(page, 'netflix-tv').getByTestId('fetch-error');
    await wait.waitFor();
    expect(await wait.getAttribute('data-retry-at')).toBe(tooSoon.body.details!.retryAt);
    expect(await wait.textContent()).toMatch(/^The mailbox was checked for this key a moment ago\.Try again in ([12]?\d|30) seconds?\.$/);
    await screenshot(page, 'customer-try-again');

    // The key's QR code: a real PNG.
    await page.getByRole('button', { name: 'QR code' }).click();
    const qr = page.getByRole('dialog', { name: 'QR code of your key' }).getByRole('img', { name: `QR code of ${codesKey.key}` });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await animationsDone(page.getByRole('dialog'));
    await screenshot(page, 'customer-qr', false);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // Mongolian: the page's own words change, the fetched code stays.
    await page.getByRole('button', { name: 'Монгол' }).click();
    await card(page, 'netflix-signin').getByRole('button', { name: 'Код авах' }).waitFor();
    expect(await page.getByRole('button', { name: 'Гарах' }).isVisible()).toBe(true);
    expect(await card(page, 'netflix-signin').getByTestId('fetched-code').textContent()).toBe('7315');
    expect(await card(page, 'netflix-tv').getByTestId('fetch-error').textContent()).toMatch(/^Энэ түлхүүрээр шууданг саяхан шалгасан\.\d+ секундын дараа дахин оролдоно уу\.$/);
    await animationsDone(page.getByTestId('language-switch'));
    await screenshot(page, 'customer-netflix-mn');
    await page.getByRole('button', { name: 'English' }).click();

    // The Disney+ page of a Netflix key: the way back to its own page.
    await page.goto(`${system.url}/disney`);
    await page.getByTestId('other-service').getByText('Your key is for Netflix').waitFor();
    expect(await page.locator('[data-card]').count()).toBe(0);
    await page.getByRole('link', { name: 'Go to the Netflix page' }).click();
    await page.waitForURL(`${system.url}/netflix`);

    // Logout: back to the sign-in page, and the service pages send there too.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${system.url}/customer-login`);
    await page.goto(`${system.url}/netflix`);
    await page.waitForURL(`${system.url}/customer-login`);
    await context.close();
  });

  it('on a 390 px phone: typing shows the key’s service, both fields are required, spaces are stripped, and a password-reset mail is refused with its reason', async () => {
    await deliverMail(mailboxUrl, refused.username, 'PASSWORD_RESET');
    const { context, page } = await customerPage(widths.mobile);
    await page.goto(`${system.url}/customer-login`);
    await page.getByRole('heading', { level: 1, name: 'Customer Login' }).waitFor();

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('login-missing').getByText('Please enter your email and key').waitFor();
    await page.getByLabel('Email').fill(`  ${refused.username.slice(0, 4)} ${refused.username.slice(4)} `);
    expect(await page.getByTestId('login-missing').count()).toBe(0);
    await page.getByLabel('Key').fill(refusedKey.key.slice(0, -4));
    expect(await page.getByTestId('key-service').count()).toBe(0);
    await page.getByLabel('Key').fill(` ${refusedKey.key.slice(0, 6)} ${refusedKey.key.slice(6)} `);
    expect(await page.getByTestId('key-service').textContent()).toBe('Key for Netflix');
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'customer-login');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${system.url}/netflix`);
    await page.getByTestId('key-panel').waitFor();

    // Only a password-reset mail from Netflix: refused, never its link.
    const fetched = await fetchCard(page, 'netflix-household', 'Get link');
    expect(fetched).toMatchObject({ status: 200, body: { result: { found: false, outcome: 'blocked', blockedType: 'PASSWORD_RESET' } } });
    const refusal = card(page, 'netflix-household').getByTestId('fetch-refused');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain(fetched.body.result!.message_mn);
    expect(await refusal.textContent()).toContain(fetched.body.result!.reason);
    expect(await card(page, 'netflix-household').getByRole('link').count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'customer-netflix');
    await context.close();
  });

  it("refuses a wrong key with 'Invalid email or key' in English and Mongolian", async () => {
    const { context, page } = await customerPage(widths.desktop);
    await page.goto(`${system.url}/customer-login`);
    await page.getByLabel('Email').fill(codes.username);
    await page.getByLabel('Key').fill('SK-WRONGWRONG-NFX');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Invalid email or key');
    expect(await error.textContent()).toContain('Имэйл эсвэл түлхүүр буруу байна');
    expect(page.url()).toBe(`${system.url}/customer-login`);
    await screenshot(page, 'customer-login-error');
    await context.close();
  });

  it('signs in with an expired key: the expiry is red, and the fetch is refused by the server however fresh the code', async () => {
    await deliverMail(mailboxUrl, expired.username, 'NFX_SIGN_IN_CODE', '2468');
    const { context, page } = await customerPage(widths.mobile);
    await page.goto(loginLink(expired.username, expiredKey.key));
    await page.waitForURL(`${system.url}/netflix`);
    const expiry = page.getByTestId('key-expiry');
    await expiry.waitFor();
    expect(await expiry.getAttribute('data-tone')).toBe('expired');
    // Red: the red palette's text colour, whatever its exact shade.
    const [red, green, blue] = (await expiry.evaluate((element) => getComputedStyle(element).color)).match(/\d+/g)!.map(Number);
    expect(red).toBeGreaterThan(green + 60);
    expect(red).toBeGreaterThan(blue + 60);
    await card(page, 'netflix-signin').getByTestId('key-not-usable').waitFor();

    const fetched = await fetchCard(page, 'netflix-signin', 'Get code');
    expect(fetched.status).toBe(403);
    const error = card(page, 'netflix-signin').getByTestId('fetch-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(fetched.body.error);
    expect(await page.getByTestId('fetched-code').count()).toBe(0);
    expect(await page.content()).not.toContain('2468');
    await screenshot(page, 'customer-expired');
    await context.close();
  });

  it("shows a TV sign-in's Approve and Deny links, with another key of the same account", async () => {
    const tv = await deliverMail(mailboxUrl, codes.username, 'NFX_TV_SIGN_IN_LINK');
    const { context, page } = await customerPage(widths.desktop);
    await page.goto(loginLink(codes.username, tvKey.key));
    await page.waitForURL(`${system.url}/netflix`);
    const fetched = await fetchCard(page, 'netflix-tv', 'Get links');
    expect(fetched.status).toBe(200);
    const tvCard = card(page, 'netflix-tv');
    await tvCard.getByTestId('fetched-tv').waitFor();
    expect(await tvCard.getByRole('link', { name: 'Approve' }).getAttribute('href')).toBe(tv.links.find((link) => link.label === 'Approve')!.url);
    expect(await tvCard.getByRole('link', { name: 'Deny' }).getAttribute('href')).toBe(tv.links.find((link) => link.label === 'Deny')!.url);
    await screenshot(page, 'customer-netflix');
    await context.close();
  });

  it('stops signing in to a mailbox the server refused three times, and tells the customer at what time to try again, in English and Mongolian', async () => {
    const replies = [];
    let page: Page | undefined;
    for (const key of pausedKeys) {
      await page?.context().close();
      ({ page } = await customerPage(widths.mobile));
      await page.goto(loginLink(pausedAccount, key.key));
      await page.waitForURL(`${system.url}/netflix`);
      replies.push(await fetchCard(page, 'netflix-signin', 'Get code'));
    }
    expect(replies.map((reply) => reply.status)).toEqual([502, 502, 503]);
    const paused = card(page!, 'netflix-signin').getByTestId('fetch-error');
    await paused.waitFor();
    const retryAt = replies[2].body.details!.retryAt;
    expect(await paused.getAttribute('data-retry-at')).toBe(retryAt);
    // Fifteen minutes away: a clock time, as this browser's locale writes it.
    const time = await page!.evaluate((at) => new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(new Date(at)), retryAt);
    expect(await paused.textContent()).toBe(`Signing in to this account’s mailbox failed several times, so it is left alone for a while.Try again at ${time}.`);
    expect(await sidewaysOverflow(page!)).toBe(0);
    await screenshot(page!, 'customer-mailbox-paused');
    await page!.getByRole('button', { name: 'Монгол' }).click();
    await card(page!, 'netflix-signin').getByRole('button', { name: 'Код авах' }).waitFor();
    expect(await paused.textContent()).toMatch(/^Энэ бүртгэлийн шуудан руу нэвтрэх оролдлого хэд хэдэн удаа амжилтгүй болсон тул түр хүлээлгэж байна\.\d{1,2}:\d{2}-д дахин оролдоно уу\.$/);
    await page!.getByRole('button', { name: 'English' }).click();
    await page!.context().close();
  });
});
