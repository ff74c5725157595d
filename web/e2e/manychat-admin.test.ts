import type { EmbeddedSystem } from '@bo/embedded';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, openToasts, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';
import { adminApi } from './qpay-support';

/** A message the ManyChat simulator delivered (the fields these journeys read). */
interface SimMessage {
  subscriberId: string | null;
  source: string;
  content: unknown;
  messageTag: string | null;
  /** The utility template it went out through (sendTemplate). */
  templateName?: string;
}

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;
let manychatUrl: string;

beforeAll(async () => {
  suite = await startBrowserSuite('manychat-admin');
  ({ system, browser } = suite);
  manychatUrl = system.simulators.manychat!.url;
});
afterAll(() => suite?.stop());

const apiOf = (page: Page) => adminApi(page, system.url);

interface Settings {
  expiry_reminder_days: number;
  base_url: string | null;
  alert_subscriber_id: string | null;
}
const settingsOf = (page: Page) => apiOf(page).get<Settings>('/api/manychat/settings');

/** What the simulator delivered to a subscriber that mentions the text (a key). */
async function messagesAbout(subscriberId: string, text: string): Promise<SimMessage[]> {
  const { messages } = (await (await fetch(`${manychatUrl}/__sim/messages?subscriberId=${subscriberId}`)).json()) as { messages: SimMessage[] };
  return messages.filter((message) => JSON.stringify(message.content).includes(text));
}

/** The open toast with this title (one at a time), waited for. */
async function toast(page: Page, title: string): Promise<Locator> {
  const found = openToasts(page).filter({ hasText: title });
  await found.waitFor({ timeout: 15_000 });
  return found;
}

const daysAhead = (days: number) => {
  const day = new Date(Date.now() + days * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
};

async function openPage(page: Page, tab = ''): Promise<void> {
  await page.goto(`${system.url}/manychat-admin${tab ? `?tab=${tab}` : ''}`);
  await page.getByRole('heading', { level: 1, name: 'ManyChat Reminders' }).waitFor();
}

describe('the /manychat-admin page against the ManyChat simulator', () => {
  // The embedded system starts without a base URL: this journey sees the warning first (it runs first in the file, or alone).
  it('saves reminder days and the base URL: invalid days refused with the server’s error, the missing-URL warning until a URL is saved', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/manychat-admin' });
    await openPage(page);
    expect(await page.title()).toBe('ManyChat Reminders · API Dashboard');
    expect(await page.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');

    const warning = page.getByTestId('base-url-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Base URL is not set: renewal notifications will not work');

    // The API status card: the chat API configured (the simulator), and the payment line.
    const status = page.getByTestId('api-status');
    expect(await status.getByTestId('api-configured').textContent()).toBe('Configured');
    await status.getByText('Simulator', { exact: true }).waitFor();
    await status.getByText('Connected to Stream Keys Shop').waitFor();
    expect(await status.getByTestId('payment-line').textContent()).toBe('Using Existing QPay Setup');
    await screenshot(page, 'manychat-admin-settings');

    // Days out of 1–30: the server says why, in a destructive toast; nothing changes.
    const days = page.getByLabel('Days before expiry', { exact: true });
    expect(await days.inputValue()).toBe('3');
    await days.fill('31');
    await page.getByTestId('reminder-days').getByRole('button', { name: 'Save' }).click();
    const refused = await toast(page, 'Error');
    expect(await refused.textContent()).toContain('Expiry reminder days must be at most 30');
    expect(await refused.getAttribute('data-type')).toBe('error');
    await days.fill('0');
    await page.getByTestId('reminder-days').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-scope="toast"][data-state="open"]').filter({ hasText: 'Expiry reminder days must be at least 1' }).waitFor();
    expect((await settingsOf(page)).expiry_reminder_days).toBe(3);

    await days.fill('5');
    await page.getByTestId('reminder-days').getByRole('button', { name: 'Save' }).click();
    expect(await (await toast(page, 'Settings updated successfully')).textContent()).toContain('Reminders go out 5 days before expiry.');
    expect((await settingsOf(page)).expiry_reminder_days).toBe(5);

    // A base URL that is not one is refused with the server's reason; a good one (trailing slash dropped) ends the warning.
    const url = page.getByLabel('Public address of this site', { exact: true });
    await url.fill('not a url');
    await page.getByTestId('base-url').getByRole('button', { name: 'Save' }).click();
    const badUrl = await toast(page, 'Error');
    expect(await badUrl.textContent()).toMatch(/Base URL must be a/);
    expect((await settingsOf(page)).base_url).toBeNull();
    await url.fill(`  ${system.url}/  `);
    await page.getByTestId('base-url').getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Settings updated successfully');
    await warning.waitFor({ state: 'detached' });
    expect((await settingsOf(page)).base_url).toBe(system.url);

    // Alerts to the admin's own subscriber: digits or nothing, the server's reason otherwise.
    const subscriber = page.getByLabel('Your ManyChat subscriber ID', { exact: true });
    await subscriber.fill('@admin');
    await page.getByTestId('alert-subscriber').getByRole('button', { name: 'Save' }).click();
    expect(await (await toast(page, 'Error')).textContent()).toContain('Alert subscriber must be a ManyChat subscriber id (digits), or empty to send no alerts');
    await subscriber.fill(' 8300001 ');
    await page.getByTestId('alert-subscriber').getByRole('button', { name: 'Save' }).click();
    expect(await (await toast(page, 'Settings updated successfully')).textContent()).toContain('Alerts will be sent to subscriber 8300001.');
    expect((await settingsOf(page)).alert_subscriber_id).toBe('8300001');

    // Saved for good: a reload shows the stored values.
    await openPage(page);
    expect(await page.getByLabel('Days before expiry', { exact: true }).inputValue()).toBe('5');
    expect(await page.getByLabel('Public address of this site', { exact: true }).inputValue()).toBe(system.url);
    expect(await page.getByTestId('base-url-warning').count()).toBe(0);
    expect(await page.getByLabel('Your ManyChat subscriber ID', { exact: true }).inputValue()).toBe('8300001');
    await context.close();
  });

  it('a manual expiry check sends ONE reminder for a key expiring in 2 days, and a second check sends none', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/manychat-admin' });
    const api = apiOf(page);
    // Set-up through the API: a base URL for the renewal link, and a key held by the simulator's first subscriber.
    await api.post('/api/manychat/settings', { key: 'base_url', value: system.url });
    await api.post('/api/manychat/settings', { key: 'expiry_reminder_days', value: 3 });
    const email = `nfx.remind.${Date.now().toString(36)}@example.mn`;
    const created = await api.post<{ data: { keys: { id: number; key: string }[] } }>('/api/streaming-keys', { service: 'NFX', email, expiresAt: daysAhead(2), profiles: 1 });
    const [key] = created.data.keys;
    await api.patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000001' });
    expect(await messagesAbout('9000001', key.key)).toEqual([]);

    await openPage(page, 'notifications');
    const check = page.getByTestId('expiry-check');
    await check.getByText('expire within 3 days').waitFor();
    await check.getByRole('button', { name: 'Run Expiry Check' }).click();
    await toast(page, 'Expiry check triggered successfully');
    const count = async (field: string) => Number((await check.locator(`[data-count="${field}"]`).textContent())?.replace(/\D/g, ''));
    expect(await count('sent')).toBe(1);
    expect(await count('failed')).toBe(0);
    // Whose counts these are: this press's own check, with the window as it was when pressed.
    expect(await check.getByTestId('check-run').textContent()).toBe('This check: keys expiring within 3 days.');

    const reminders = await messagesAbout('9000001', key.key);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].source).toBe('sendContent');
    expect(JSON.stringify(reminders[0].content)).toContain(`${system.url}/api/streaming/renew/`);
    await screenshot(page, 'manychat-admin-notifications');

    // The same key and expiry date: already reminded, nothing sent.
    await check.getByRole('button', { name: 'Run Expiry Check' }).click();
    await expect.poll(() => count('skipped'), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await count('sent')).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await messagesAbout('9000001', key.key)).toHaveLength(1);

    // The reminder is folded into the key's notification status (the expiry report reads it).
    await expect
      .poll(async () => (await api.get<{ keys: { id: number; notificationStatus: string | null }[] }>('/api/streaming/expiry-report')).keys.find((row) => row.id === key.id)?.notificationStatus, { timeout: 15_000 })
      .toBe('sent');
    await context.close();
  });

  it('shows the three templates with their previews, and the Customers placeholder', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/manychat-admin?tab=notifications' });
    const templates = page.getByTestId('templates');
    for (const kind of ['key_delivery', 'renewal_reminder', 'payment_confirmation']) {
      const template = templates.locator(`[data-template="${kind}"]`);
      await template.waitFor();
      expect((await template.getByTestId('template-preview').textContent())!.trim().length).toBeGreaterThan(10);
    }
    expect(await templates.getByRole('heading', { level: 3 }).allTextContents()).toEqual(expect.arrayContaining(['Key delivery', 'Renewal reminder', 'Payment confirmation']));
    await page.getByRole('tab', { name: 'Customers' }).click();
    await page.getByText('Customer management features are coming soon.').waitFor();
    expect(page.url()).toContain('tab=customers');
    await context.close();
  });

  it('holds a reminder outside the 24-hour window with no template, shows it with its reason on the page and on the key, takes a template name, and sends the held reminder through it once it is saved', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/manychat-admin' });
    const api = apiOf(page);
    await api.post('/api/manychat/settings', { key: 'base_url', value: system.url });
    // Tuul (9000003) last wrote 10 days ago, and the chat never told notifications of her: ManyChat's 3011 says the window is closed.
    const email = `nfx.held.${Date.now().toString(36)}@example.mn`;
    const created = await api.post<{ data: { keys: { id: number; key: string }[] } }>('/api/streaming-keys', { service: 'NFX', email, expiresAt: daysAhead(2), profiles: 1 });
    const [key] = created.data.keys;
    await api.patch(`/api/streaming-keys/${key.id}/customer-id`, { customerId: '9000003' });

    await openPage(page, 'notifications');
    const check = page.getByTestId('expiry-check');
    await check.getByRole('button', { name: 'Run Expiry Check' }).click();
    await toast(page, 'Expiry check triggered successfully');
    expect(Number((await check.locator('[data-count="held"]').textContent())?.replace(/\D/g, ''))).toBe(1);
    expect(await messagesAbout('9000003', key.key)).toEqual([]);

    // The held list (refreshed by the check) names the message, the customer, the key and why.
    const reason = 'Outside the 24-hour window and no utility template is set for renewal reminders (/manychat-admin): held until the subscriber writes';
    const held = page.getByTestId('held-messages');
    const row = held.locator('[data-delivery]').filter({ hasText: '9000003' });
    await row.waitFor();
    for (const text of ['Renewal reminder', `Key #${key.id}`, reason]) expect(await row.textContent()).toContain(text);
    const renewal = page.locator('[data-utility-template="renewal_reminder"]');
    expect(await renewal.getByTestId('utility-state').textContent()).toBe('No template: held');
    await screenshot(page, 'manychat-admin-held');
    // On a phone the list scrolls inside its card; the page does not scroll sideways.
    const phone = await signedIn(browser, system.url, { path: '/manychat-admin?tab=notifications', width: widths.mobile });
    await phone.page.getByTestId('held-messages').locator('[data-delivery]').filter({ hasText: '9000003' }).waitFor();
    await phone.page.getByTestId('utility-templates').locator('[data-utility-template]').first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'manychat-admin-held');
    await phone.context.close();

    // The key on /streaming-keys shows the reminder held, with the same reason.
    const keysPage = await context.newPage();
    await keysPage.goto(`${system.url}/streaming-keys`);
    await keysPage.getByRole('button', { name: 'Expiry Report' }).click();
    const reportRow = keysPage.getByTestId('expiry-report-table').locator('tr').filter({ hasText: key.key });
    await reportRow.getByText('Held', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await reportRow.getByTestId('notification-error').textContent()).toBe(reason);
    await animationsDone(keysPage.getByRole('dialog'));
    await screenshot(keysPage, 'manychat-admin-held-key', false);
    await keysPage.close();

    // A template name in Meta's form only; the server says why another is refused.
    const name = renewal.getByLabel('Renewal reminder: utility template name', { exact: true });
    await name.fill('Renewal Reminder');
    await renewal.getByRole('button', { name: 'Save' }).click();
    expect(await (await toast(page, 'Error')).textContent()).toContain('Template name must be lowercase letters, digits and underscores');
    // Meta approved "renewal_reminder" (the simulator plays the review): saving its name sends the held reminder through it at once, once.
    const approved = await fetch(`${manychatUrl}/__sim/templates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'renewal_reminder' }) });
    expect(approved.status).toBe(200);
    await name.fill('renewal_reminder');
    await renewal.getByRole('button', { name: 'Save' }).click();
    expect(await (await toast(page, 'Settings updated successfully')).textContent()).toContain('Outside the 24-hour window, Renewal reminder now goes through “renewal_reminder”.');
    await expect.poll(() => renewal.getByTestId('utility-state').textContent()).toBe('Template set');
    expect((await api.get<{ utility_templates: { kind: string; name: string | null }[] }>('/api/manychat/settings')).utility_templates).toContainEqual(expect.objectContaining({ kind: 'renewal_reminder', name: 'renewal_reminder' }));
    await expect.poll(async () => (await messagesAbout('9000003', key.key)).length, { timeout: 20_000 }).toBe(1);
    const [sent] = await messagesAbout('9000003', key.key);
    expect(sent).toMatchObject({ source: 'sendTemplate', templateName: 'renewal_reminder', messageTag: null });
    expect(JSON.stringify(sent.content)).toContain(`${system.url}/api/streaming/renew/`);

    // Tuul writes to the chat afterwards (the simulator plays ManyChat calling the chat webhook): nothing is held any more, so nothing more goes.
    const wrote = await fetch(`${manychatUrl}/__sim/driver/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ subscriberId: '9000003', text: 'сайн байна уу' }) });
    expect(wrote.status).toBe(200);
    await held.getByRole('button', { name: 'Refresh' }).click();
    await held.getByText('No message is held.').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await messagesAbout('9000003', key.key)).toHaveLength(1);
    await context.close();
  });

  it('is usable on a 390 px phone: the tabs and forms fit, nothing scrolls sideways', async () => {
    const { context, page } = await signedIn(browser, system.url, { path: '/manychat-admin', width: widths.mobile });
    await openPage(page);
    await page.getByTestId('api-status').waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'manychat-admin-settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByTestId('templates').locator('[data-template]').first().waitFor();
    await animationsDone(page.getByTestId('templates'));
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'manychat-admin-notifications');
    await context.close();
  });
});
