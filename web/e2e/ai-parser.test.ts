import type { EmbeddedSystem } from '@bo/embedded';
import type { ParseResult } from '@bo/proto';
import { composeMail, type MailKind } from '@bo/sim-mailbox/emails';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sidewaysOverflow, toast } from './qpay-support';
import { screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('ai-parser');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

/** A streaming service's e-mail as an admin would paste it: the subject, then the text. */
const pasted = (kind: MailKind, code?: string) => {
  const mail = composeMail(kind, 'netflix.keys01@streamshop.test', code);
  return `${mail.subject}\n\n${mail.text}`;
};

async function openPage(width: number = widths.desktop) {
  const signed = await signedIn(browser, system.url, { path: '/ai-parser-config', width });
  await signed.page.getByRole('heading', { level: 1, name: 'AI Email Parser Configuration' }).waitFor();
  return signed;
}

/** Fills the test card and presses Test; the server's reply as the page received it. */
async function runTest(page: Page, codeType: string, emailText: string): Promise<{ status: number; body: { data?: ParseResult; error?: string } }> {
  const form = page.getByTestId('test-card');
  await form.getByLabel('Code Type').selectOption(codeType);
  await form.getByLabel('Email Text').fill(emailText);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/ai-parser/test', { timeout: 30_000 }),
    form.getByRole('button', { name: 'Test', exact: true }).click(),
  ]);
  return { status: response.status(), body: await response.json() };
}

describe('the /ai-parser-config page', () => {
  it('starts from the default prompt, saves an edit that survives a reload, and never saves a blank one', async () => {
    const { context, page } = await openPage();
    const prompt = page.getByTestId('prompt-card').getByLabel('System prompt');
    await prompt.waitFor();
    // Nothing saved yet in this run: the default the parser uses is in the editor, said to be the default.
    await page.getByTestId('default-prompt').waitFor();
    const defaultText = await prompt.inputValue();
    expect(defaultText.trim().length).toBeGreaterThan(20);

    const save = page.getByRole('button', { name: 'Save System Prompt' });
    await prompt.fill('   ');
    expect(await save.isDisabled()).toBe(true);

    const edited = `${defaultText}\n\nКодыг зөвхөн 15 минутын доторх и-мэйлээс ав. (e2e ${Date.now()})`;
    await prompt.fill(edited);
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await toast(page, 'System Prompt Updated');

    await page.reload();
    await expect.poll(() => page.getByTestId('prompt-card').getByLabel('System prompt').inputValue()).toBe(edited);
    expect(await page.getByTestId('default-prompt').count()).toBe(0);
    await screenshot(page, 'ai-parser');
    await context.close();
  });

  it("asks for both fields ('Missing Information'), finds the code of a pasted sign-in mail, and refuses a password-reset mail with the reason", async () => {
    const { context, page } = await openPage();
    const form = page.getByTestId('test-card');
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    expect(await toast(page, 'Missing Information')).toContain('Please provide both email text and code type');
    await form.getByLabel('Email Text').fill(pasted('NFX_SIGN_IN_CODE', '4821'));
    await form.getByRole('button', { name: 'Test', exact: true }).click();
    expect(await toast(page, 'Missing Information')).toContain('Please provide both email text and code type');
    expect(await page.getByTestId('test-results').count()).toBe(0);

    // Every allowed type is offered, with its label.
    expect(await form.getByLabel('Code Type').locator('option').allTextContents()).toEqual([
      'Choose a code type',
      'Netflix sign-in code (NFX_SIGN_IN_CODE)',
      'Netflix temporary access link (NFX_TEMPORARY_ACCESS_CODE)',
      'Netflix household update link (NFX_UPDATE_HOUSEHOLD)',
      'Netflix TV sign-in approve and deny links (NFX_TV_SIGN_IN_LINK)',
      'Disney+ one-time passcode (DP_OTP)',
      'Prime Video one-time password (AMZ_OTP)',
      'Hulu one-time passcode (HLU_OTP)',
      'Max one-time code (MAX_OTP)',
    ]);

    const signIn = await runTest(page, 'NFX_SIGN_IN_CODE', pasted('NFX_SIGN_IN_CODE', '4821'));
    expect(signIn.status).toBe(200);
    expect(signIn.body.data).toMatchObject({ found: true, code: '4821' });
    await toast(page, 'Test Complete');
    const results = page.getByTestId('test-results');
    await results.waitFor();
    expect(await results.getByTestId('result-found').textContent()).toBe('Yes');
    expect(await results.getByTestId('result-code').textContent()).toBe('4821');
    expect(await results.getByTestId('result-reason').textContent()).toBe(signIn.body.data!.reason);
    expect(await results.getByTestId('result-source').textContent()).toBe(signIn.body.data!.source === 'ai' ? 'AI' : 'Regular expressions');

    const reset = await runTest(page, 'NFX_UPDATE_HOUSEHOLD', pasted('PASSWORD_RESET'));
    expect(reset.body.data).toMatchObject({ found: false, blockedType: 'PASSWORD_RESET', code: null, links: [] });
    await toast(page, 'Test Complete');
    await expect.poll(() => results.getByTestId('result-found').textContent()).toBe('No');
    expect(await results.getByTestId('result-blocked').textContent()).toBe('Password reset');
    expect(await results.getByTestId('result-reason').textContent()).toBe(reset.body.data!.reason);
    expect(await results.getByTestId('result-message').textContent()).toBe(reset.body.data!.message_mn);
    expect(await results.getByTestId('result-links').textContent()).toBe('None');
    await screenshot(page, 'ai-parser-results');

    // A refused test clears the last result; the toast gives the server's reason.
    const tooLong = await runTest(page, 'NFX_SIGN_IN_CODE', 'x'.repeat(200_001));
    expect(tooLong.status).toBeGreaterThanOrEqual(400);
    const failed = await toast(page, 'Error');
    expect(failed).toContain(tooLong.body.error ?? 'Failed to test AI parser');
    await results.waitFor({ state: 'detached' });
    await context.close();
  });

  it('lists the allowed and the blocked kinds, fits a 390 px phone, and shows the spinner while the prompt loads', async () => {
    const { context, page } = await openPage(widths.mobile);
    await page.getByTestId('prompt-card').getByLabel('System prompt').waitFor();
    const allowed = await page.getByTestId('allowed-types').locator('li').allTextContents();
    expect(allowed).toHaveLength(8);
    expect(allowed[0]).toBe('NFX_SIGN_IN_CODENetflix sign-in code');
    expect(await page.getByTestId('blocked-types').locator('li').allTextContents()).toEqual([
      'PASSWORD_RESETPassword reset',
      'SECURITY_VERIFICATION_CODEAccount-security verification code',
      'EMAIL_CHANGE_VERIFICATIONE-mail change verification',
    ]);
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'ai-parser');

    // The AI Admin page's e-mail parser prompt card leads here.
    await page.goto(`${system.url}/ai-admin`);
    await page.getByRole('link', { name: 'AI Email Parser' }).click();
    await page.getByRole('heading', { level: 1, name: 'AI Email Parser Configuration' }).waitFor();

    // While the prompt loads, the page says so with its spinner: the read is held back here until
    // the spinner has been seen (however long the page takes to show it).
    const promptRead = '**/api/system-prompts/email_parser_prompt';
    let releasePrompt!: () => void;
    const promptHeld = new Promise<void>((resolve) => (releasePrompt = resolve));
    await page.route(promptRead, async (route) => {
      await promptHeld;
      await route.continue();
    });
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Loading the system prompt...' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('prompt-card').getByLabel('System prompt').count()).toBe(0);
    releasePrompt();
    await page.getByTestId('prompt-card').getByLabel('System prompt').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Loading the system prompt...' }).count()).toBe(0);
    await page.unroute(promptRead);
    await context.close();
  });
});
