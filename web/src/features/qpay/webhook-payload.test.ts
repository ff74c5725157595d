import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/json';
import { chatReplyMessages, samplePayloadText } from './webhook-payload';

describe('the test-webhook payload editor', () => {
  it('starts from document 3\'s payload: the subscriber and the custom fields', () => {
    const parsed = parseJson(samplePayloadText());
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['user_id', 'first_name', 'last_name', 'email', 'phone', 'custom_fields']);
    expect(value.custom_fields).toEqual({ invoice_code: 'NFX-1M', invoice_id: 'TEST-1001', amount: '35000' });
  });
});

describe('chatReplyMessages', () => {
  it('reads the payment link out of a Dynamic Block reply', () => {
    const reply = {
      version: 'v2',
      content: { messages: [{ type: 'text', text: 'Netflix 1 сар — 35,000₮.', buttons: [{ type: 'url', caption: 'Төлөх / Pay', url: 'http://localhost:5000/payment/INV-7K3Q9X2M4P' }] }] },
    };
    expect(chatReplyMessages(reply)).toEqual([{ text: 'Netflix 1 сар — 35,000₮.', links: [{ caption: 'Төлөх / Pay', url: 'http://localhost:5000/payment/INV-7K3Q9X2M4P' }] }]);
  });

  it.each([
    ['an error reply', { error: 'custom_fields.amount must be more than 0', details: [] }],
    ['a text', 'Bad Gateway'],
    ['null', null],
    ['messages that are not a list', { content: { messages: 'x' } }],
  ])('finds no message in %s', (_what, response) => {
    expect(chatReplyMessages(response)).toEqual([]);
  });
});
