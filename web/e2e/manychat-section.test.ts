import type { EmbeddedSystem } from '@bo/embedded';
import { DASHBOARD_SAMPLE_SUBSCRIBER, type DynamicBlock } from '@bo/proto';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToasts, screenshot, signedIn, startBrowserSuite, widths, type BrowserSuite } from './support';

let suite: BrowserSuite;
let system: EmbeddedSystem;
let browser: Browser;

beforeAll(async () => {
  suite = await startBrowserSuite('manychat-section');
  ({ system, browser } = suite);
});
afterAll(() => suite?.stop());

const FAILED_REPLY = "Sorry, I couldn't process your request. Please try again.";
const isWebhook = (url: URL) => url.pathname === '/api/manychat/webhook';

/** The chat window's parts, as a person finds them. */
function chatOf(page: Page) {
  return {
    messages: page.getByTestId('chat-message'),
    botMessages: page.locator('[data-testid="chat-message"][data-from="bot"]'),
    typing: page.getByTestId('typing-indicator'),
    field: page.getByRole('textbox', { name: 'Message' }),
    send: page.getByRole('button', { name: 'Send', exact: true }),
  };
}

async function openSimulator(width: number = widths.desktop) {
  const { context, page } = await signedIn(browser, system.url, { width, path: '/?section=manychat' });
  await page.getByRole('heading', { level: 1, name: 'ManyChat Webhook Simulator' }).waitFor();
  return { context, page, chat: chatOf(page) };
}

/** The webhook's answer played by the test (page.route), for the outcomes the real server gives only rarely. */
const answerWebhook = (page: Page, status: number, body: unknown) =>
  page.route(isWebhook, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }));

/** The bot's newest message once there are `count` of them (the two samples included). */
async function botMessage(chat: ReturnType<typeof chatOf>, count: number): Promise<string> {
  await chat.botMessages.nth(count - 1).waitFor({ timeout: 15_000 });
  expect(await chat.botMessages.count()).toBe(count);
  return (await chat.botMessages.last().textContent()) ?? '';
}

/** The open toast with this title (one at a time), waited for. */
async function toast(page: Page, title: string): Promise<Locator> {
  const found = openToasts(page).filter({ hasText: title });
  await found.waitFor({ timeout: 15_000 });
  return found;
}

describe('the manychat section (webhook simulator) in a real browser', () => {
  it('opens with the two sample messages, writing as the sample subscriber; Send waits for a text', async () => {
    const { context, page, chat } = await openSimulator();
    expect(await page.title()).toBe('ManyChat Webhook Simulator · API Dashboard');
    expect(await chat.messages.allTextContents()).toEqual([
      'Hello! I’m the shop’s chat bot. Ask me about a product’s price.',
      'Try “how much is Netflix 1 month” or “netflix үнэ хэд вэ”.',
    ]);
    expect(await chat.botMessages.count()).toBe(2);
    await page.getByText(`Writing as ${DASHBOARD_SAMPLE_SUBSCRIBER.first_name} (subscriber ${DASHBOARD_SAMPLE_SUBSCRIBER.user_id})`, { exact: true }).waitFor();
    expect(await chat.typing.count()).toBe(0);
    expect(await chat.send.isDisabled()).toBe(true);
    await chat.field.fill('   ');
    expect(await chat.send.isDisabled()).toBe(true);
    await context.close();
  });

  it('answers a price question from the price list: the typing indicator shows and sending is blocked until the reply', async () => {
    const { context, page, chat } = await openSimulator();
    // The real server answers; the test only holds the request back until it has seen the waiting state.
    const sent: Request[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(isWebhook, async (route) => {
      sent.push(route.request());
      await released;
      await route.continue();
    });

    // A product the Google Sheets simulator seeds (simulators/google-sheets/src/price-list.ts).
    const question = 'How much is Netflix Premium 1 month?';
    await chat.field.fill(question);
    await chat.send.click();
    await chat.typing.waitFor();
    expect(await chat.messages.last().textContent()).toBe(question);
    expect(await chat.field.inputValue()).toBe('');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0].postDataJSON()).toEqual({ text: question, ...DASHBOARD_SAMPLE_SUBSCRIBER });
    expect(sent[0].headers()['x-csrf-token']).toBeTruthy();

    // While the reply is awaited a next message can be typed, not sent: neither Send nor Enter sends it.
    await chat.field.fill('netflix үнэ хэд вэ');
    expect(await chat.send.isDisabled()).toBe(true);
    await chat.field.press('Enter');
    expect(sent.length).toBe(1);
    expect(await chat.typing.textContent()).toBe('The bot is typing…');
    await screenshot(page, 'manychat-typing');

    release();
    const reply = await botMessage(chat, 3);
    await chat.typing.waitFor({ state: 'detached' });
    expect(await chat.send.isEnabled()).toBe(true);
    expect(reply, 'the reply of the real webhook').toContain('Netflix');
    expect(reply, 'the reply of the real webhook').toContain('₮');
    await screenshot(page, 'manychat-price-reply');
    await context.close();
  });

  it('a failed call: the reply says sorry and a destructive toast says the message did not reach the webhook', async () => {
    const { context, page, chat } = await openSimulator();
    await answerWebhook(page, 500, { error: 'ai-chat is unavailable' });
    await chat.field.fill('netflix үнэ хэд вэ');
    await chat.field.press('Enter');

    expect(await botMessage(chat, 3)).toBe(FAILED_REPLY);
    const shown = await toast(page, 'Failed to send message to webhook');
    expect(await shown.textContent()).toContain('ai-chat is unavailable');
    expect(await shown.getAttribute('data-type')).toBe('error');
    expect(await chat.typing.count()).toBe(0);

    // No answer at all (the connection drops): the same, and the chat takes the next message.
    await page.unroute(isWebhook);
    await page.route(isWebhook, (route) => route.abort('connectionreset'));
    await chat.field.fill('hello?');
    await chat.send.click();
    expect(await botMessage(chat, 4)).toBe(FAILED_REPLY);
    await toast(page, 'Failed to send message to webhook');
    await context.close();
  });

  it("an empty reply (the subscriber is with a person) shows 'No response received'", async () => {
    const { context, page, chat } = await openSimulator();
    await answerWebhook(page, 200, { version: 'v2', content: { messages: [] } } satisfies DynamicBlock);
    await chat.field.fill('I want to talk to a person');
    await chat.send.click();
    expect(await botMessage(chat, 3)).toBe('No response received');
    expect(await page.locator('[data-scope="toast"][data-state="open"]').count()).toBe(0);
    await context.close();
  });

  it('fits 1440 and 390 px: the reply’s first message with its link under it, long words wrapped, nothing wider than the screen', async () => {
    const reply: DynamicBlock = {
      version: 'v2',
      content: {
        messages: [
          { type: 'text', text: 'Netflix Premium - 1 сар: 36,000₮\nNetflix Premium - 3 сар: 99,000₮', buttons: [{ type: 'url', caption: 'Авах / Buy', url: 'https://shop.example.mn/api/manychat/buy/eyJ' }] },
          { type: 'text', text: 'Not shown: only the first message is' },
        ],
      },
    };
    for (const width of [widths.desktop, widths.mobile]) {
      const { context, page, chat } = await openSimulator(width);
      await answerWebhook(page, 200, reply);
      await chat.field.fill(`how much is netflix ${'x'.repeat(80)}`);
      await chat.send.click();
      expect(await botMessage(chat, 3)).toBe('Netflix Premium - 1 сар: 36,000₮\nNetflix Premium - 3 сар: 99,000₮');
      const link = page.getByTestId('reply-links').getByRole('link', { name: 'Авах / Buy' });
      expect(await link.getAttribute('href')).toBe('https://shop.example.mn/api/manychat/buy/eyJ');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await page.getByText('Not shown: only the first message is').count()).toBe(0);

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      for (const part of [chat.field, chat.send, chat.messages.last()]) {
        const box = (await part.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      // The composer is in the first screen at 390 px too, below the conversation.
      const send = (await chat.send.boundingBox())!;
      expect(send.y + send.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      await screenshot(page, 'manychat');
      await context.close();
    }
  });
});
