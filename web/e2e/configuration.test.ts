import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbeddedSystem } from '@bo/embedded';
import { dataKeyId } from '@bo/platform/secret-box';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, sidewaysOverflow, toast } from './qpay-support';
import { animationsDone, headingOutline, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

interface ConfigItem { name: string; configured: boolean; service?: string; dataKey?: { id: string; oldKeys: number } }

/** An older data key payments still accepts in this suite (the embedded run has none), so the page has a count to show. */
const OLDER_KEY = 'an-older-data-key-kept-by-the-configuration-suite-4f1c9e';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('configuration', { environment: { payments: { DATA_ENCRYPTION_OLD_KEYS: OLDER_KEY } } });
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

/** The data key the embedded run made for this data folder (data/secrets.json): the page may show its id, never it. */
const dataKey = async () => (JSON.parse(await readFile(join(system.dataDir, 'secrets.json'), 'utf8')) as { dataEncryptionKey: string }).dataEncryptionKey;

async function openConfiguration(width: number = widths.desktop) {
  const signed = await signedIn(browser, system.url, { width, path: '/configuration' });
  await signed.page.getByRole('heading', { level: 2, name: 'Outside systems' }).waitFor({ timeout: 15_000 });
  await signed.page.getByTestId('systems-groups').waitFor();
  await signed.page.getByTestId('chat-webhook-secret-masked').filter({ hasText: /^••••/ }).waitFor();
  await signed.page.getByTestId('data-key-row').first().waitFor();
  return signed;
}

const masked = (page: Page) => page.getByTestId('chat-webhook-secret-masked');

describe('the /configuration page in a real browser', () => {
  it('opens from the sidebar and shows what each service has configured, as the config status says', async () => {
    const { context, page } = await signedIn(browser, system.url);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('button', { name: 'Configuration', exact: true }).click();
    await page.waitForURL(`${system.url}/?section=config`);
    await page.getByRole('link', { name: 'Webhook secrets and data key' }).click();
    await page.waitForURL(`${system.url}/configuration`);
    await page.getByRole('heading', { level: 1, name: 'Configuration' }).waitFor();
    expect(await page.title()).toBe('Configuration · API Dashboard');

    const status = (await adminApi(page, system.url).get<{ data: ConfigItem[] }>('/api/admin/config-status')).data;
    const groups = page.getByTestId('systems-groups').getByTestId('config-group');
    await groups.first().waitFor({ timeout: 15_000 });
    // One card per process in the registry's order, each with the items that process reported.
    const services = [...new Set(status.map((item) => item.service))];
    expect(services.slice(0, 3)).toEqual(['gateway', 'pricing', 'shop-sync']);
    expect(await groups.evaluateAll((cards) => cards.map((card) => card.getAttribute('data-group')))).toEqual(services);
    for (const service of services) {
      const card = page.getByTestId('systems-groups').locator(`[data-testid="config-group"][data-group="${service}"]`);
      const names = await card.getByTestId('config-item').evaluateAll((rows) => rows.map((row) => row.querySelector('p')?.textContent));
      expect(names, service).toEqual(status.filter((item) => item.service === service).map((item) => item.name));
    }
    expect(await page.locator('[data-group="payments"] h3').textContent()).toBe('Payments');
    expect(await page.locator('[data-group="payments"]').textContent()).toContain('QPay (sandbox)');
    const configured = status.filter((item) => item.configured).length;
    expect(await page.getByTestId('systems-summary').textContent()).toBe(`${configured} of ${status.length} configured`);
    expect(await page.getByTestId('systems-groups').locator('[data-configured="true"]').count()).toBe(configured);
    expect(await headingOutline(page, 'main')).toEqual({ h1: 1, skips: [] });
    await context.close();
  });

  it("lists the inbound webhooks: the chat flow's two addresses and its secret masked (Copy gives the whole), QPay's callback with no shared secret", async () => {
    const { context, page } = await openConfiguration();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.url });
    const api = adminApi(page, system.url);
    const { secret } = await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal');
    expect(await masked(page).textContent()).toBe(`••••${secret.slice(-4)}`);
    expect(await page.content()).not.toContain(secret);
    const { webhookSecretRotatedAt } = await api.get<{ webhookSecretRotatedAt: string | null }>('/api/qpay/settings');
    const rotated = await page.getByTestId('chat-webhook-secret-rotated').textContent();
    if (webhookSecretRotatedAt === null) expect(rotated).toBe('Not rotated yet: the value QPAY_WEBHOOK_SECRET gave at the first start.');
    else expect(rotated).toMatch(/^Last rotated /);

    const chat = page.getByTestId('chat-webhook');
    expect(await chat.getByTestId('chat-messages-address-path').textContent()).toBe('/api/manychat/webhook');
    expect(await chat.getByTestId('chat-messages-address-url').textContent()).toBe(`${system.url}/api/manychat/webhook`);
    expect(await chat.getByTestId('chat-payment-address-path').textContent()).toBe('/api/qpay/webhook');
    expect(await chat.getByTestId('chat-payment-address-url').textContent()).toBe(`${system.url}/api/qpay/webhook`);
    const callback = page.getByTestId('qpay-callback');
    expect(await callback.getByTestId('qpay-callback-address-path').textContent()).toBe('/api/qpay/callback');
    expect(await callback.textContent()).toContain('No shared secret to keep');
    // The callback has no secret to copy or rotate.
    expect(await callback.getByRole('button', { name: /Rotate|Copy .*secret/i }).count()).toBe(0);

    await chat.getByRole('button', { name: 'Copy Messages (Dynamic Block) address' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${system.url}/api/manychat/webhook`);
    const revealed: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/qpay/webhook-secret/reveal') revealed.push(response.request().method());
    });
    await chat.getByRole('button', { name: 'Copy Chat webhook secret' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(revealed).toEqual(['POST']);
    await context.close();
  });

  it('rotates the chat webhook secret after a confirmation: a toast, the masked value and the rotated-at change, the old secret opens nothing', async () => {
    const { context, page } = await openConfiguration();
    const api = adminApi(page, system.url);
    const first = (await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal')).secret;
    const rotatedAt = async () => (await api.get<{ webhookSecretRotatedAt: string | null }>('/api/qpay/settings')).webhookSecretRotatedAt;
    const rotatedAtBefore = await rotatedAt();
    const rotatedBefore = await page.getByTestId('chat-webhook-secret-rotated').textContent();

    // Cancel changes nothing.
    await page.getByTestId('chat-webhook').getByRole('button', { name: 'Rotate', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Rotate the secret?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('The outside system must be given the new one.');
    await animationsDone(dialog);
    await animationsDone(page.locator('[data-scope="dialog"][data-part="backdrop"]'));
    await screenshot(page, 'configuration-rotate', false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal')).secret).toBe(first);

    await page.getByTestId('chat-webhook').getByRole('button', { name: 'Rotate', exact: true }).click();
    const beforeRotate = Date.now();
    await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
    expect(await toast(page, 'Secret rotated')).toContain("Copy the new secret into ManyChat's X-Webhook-Secret header.");
    await dialog.waitFor({ state: 'hidden' });
    const second = (await api.post<{ secret: string }>('/api/qpay/webhook-secret/reveal')).secret;
    expect(second).not.toBe(first);
    await expect.poll(() => masked(page).textContent()).toBe(`••••${second.slice(-4)}`);
    const rotatedAfter = await page.getByTestId('chat-webhook-secret-rotated').textContent();
    expect(rotatedAfter).toMatch(/^Last rotated /);
    // This suite rotates once: the line changes from 'Not rotated yet' (to the minute, a second rotation could read the same).
    expect(rotatedAfter).not.toBe(rotatedBefore);
    const rotatedAtAfter = await rotatedAt();
    expect(rotatedAtAfter).not.toBe(rotatedAtBefore);
    // Rotated by this click: stamped between the click and now, however long the two took.
    expect(Date.parse(rotatedAtAfter!)).toBeGreaterThanOrEqual(beforeRotate);
    expect(Date.parse(rotatedAtAfter!)).toBeLessThanOrEqual(Date.now());
    expect(await page.content()).not.toContain(second);

    const order = { user_id: '1234567', custom_fields: { invoice_code: 'NFX-1M', invoice_id: 'CONFIG-ROTATE-1', amount: '35000' } };
    expect((await page.request.post(`${system.url}/api/qpay/webhook`, { data: order, headers: { 'x-webhook-secret': first } })).status()).toBe(401);
    await context.close();
  });

  it("shows each service's data key by its 8-hex id and how many older keys it accepts, never the key", async () => {
    const { context, page } = await openConfiguration();
    const key = await dataKey();
    const rows = page.getByTestId('data-key-row');
    expect(await rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-service')))).toEqual(['payments', 'streaming-keys']);
    for (const id of await rows.getByTestId('data-key-id').allTextContents()) {
      expect(id).toMatch(/^[0-9a-f]{8}$/);
      expect(id).toBe(dataKeyId(key));
    }
    expect(await page.locator('[data-testid="data-key-row"][data-service="payments"]').getByTestId('data-key-old-keys').textContent()).toBe('1 older key still accepted');
    expect(await page.locator('[data-testid="data-key-row"][data-service="streaming-keys"]').getByTestId('data-key-old-keys').textContent()).toBe('No older key accepted');
    const html = await page.content();
    for (const secret of [key, OLDER_KEY]) expect(html).not.toContain(secret);
    const reply = JSON.stringify(await adminApi(page, system.url).get('/api/admin/config-status'));
    for (const secret of [key, OLDER_KEY]) expect(reply).not.toContain(secret);
    await context.close();
  });

  it('works at 1440 px and 390 px, with no sideways scroll on a phone', async () => {
    for (const width of [widths.desktop, widths.mobile]) {
      const { context, page } = await openConfiguration(width);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'configuration');
      await context.close();
    }
  });
});
