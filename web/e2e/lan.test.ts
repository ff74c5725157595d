import { freePort } from '@bo/sim-kit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdmin, newContext, screenshot, signInWithPassword, startBrowserSuite, widths, type BrowserSuite } from './support';

/**
 * The embedded run served to a LAN over plain HTTP (README: HOST and PUBLIC_URL). "lan.test" is
 * this machine under another name and address (127.0.0.2), as a colleague's browser would see it.
 */
let suite: BrowserSuite;
let browser: Browser;
let lanUrl: string;

beforeAll(async () => {
  const port = await freePort();
  lanUrl = `http://lan.test:${port}`;
  suite = await startBrowserSuite('lan', { port, host: '127.0.0.2', publicUrl: lanUrl, browserArgs: ['--host-resolver-rules=MAP lan.test 127.0.0.2'] });
  ({ browser } = suite);
  await createLocalAdmin(suite.system.databaseUrl);
});
afterAll(() => suite?.stop());

describe('the dashboard over plain HTTP on a LAN address', () => {
  it('signs in and shows the overview: no upgrade to HTTPS is asked of the browser', async () => {
    const context = await newContext(browser, widths.desktop);
    const page = await context.newPage();
    const login = await page.goto(`${lanUrl}/login`);
    expect(login!.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(login!.headers()['strict-transport-security']).toBeUndefined();
    await signInWithPassword(page);
    await page.waitForURL(`${lanUrl}/`);
    await page.getByTestId('stat-cards').getByText('Online').waitFor({ timeout: 20_000 });
    expect(page.url().startsWith('http://lan.test:')).toBe(true);
    await screenshot(page, 'lan-overview');
    await context.close();
  });
});
