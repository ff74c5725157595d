import { describe, expect, it } from 'vitest';
import { botReply, type WebhookReply } from './api';

const block = (messages: WebhookReply['content']['messages']): WebhookReply => ({ version: 'v2', content: { messages } });

describe('botReply', () => {
  it('shows the first message’s text and its web links, not the later messages', () => {
    const reply = botReply(
      block([
        {
          type: 'text',
          text: 'Netflix Premium - 1 сар: 36,000₮',
          buttons: [
            { type: 'url', caption: 'Авах / Buy', url: 'https://shop.example.mn/api/manychat/buy/eyJ' },
            { type: 'flow', caption: 'Menu', target: 'content20240101' },
          ],
        },
        { type: 'text', text: 'Anything else?' },
      ]),
    );
    expect(reply).toEqual({ text: 'Netflix Premium - 1 сар: 36,000₮', links: [{ caption: 'Авах / Buy', url: 'https://shop.example.mn/api/manychat/buy/eyJ' }] });
  });

  it('has no text when nothing is sent (the subscriber is with a person) or the answer was empty', () => {
    expect(botReply(block([]))).toEqual({ text: null, links: [] });
    expect(botReply(null)).toEqual({ text: null, links: [] });
  });

  it('keeps only http(s) links', () => {
    const reply = botReply(block([{ type: 'text', text: 'Pay', buttons: [{ type: 'url', caption: 'Pay', url: 'javascript:alert(1)' }] }]));
    expect(reply.links).toEqual([]);
  });
});
