import { describe, expect, it } from 'vitest';
import { chatReplyMessages, parsePayload, samplePayloadText } from './webhook-payload';

describe('the test-webhook payload editor', () => {
  it('starts from document 3\'s payload: the subscriber and the custom fields', () => {
    const parsed = parsePayload(samplePayloadText());
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['user_id', 'first_name', 'last_name', 'email', 'phone', 'custom_fields']);
    expect(value.custom_fields).toEqual({ invoice_code: 'NFX-1M', invoice_id: 'TEST-1001', amount: '35000' });
  });

  it('says why a text is not JSON instead of sending it', () => {
    const parsed = parsePayload('{ "user_id": "1234567", }');
    expect(parsed.ok).toBe(false);
    expect((parsed as { error: string }).error).toMatch(/JSON|property|position/i);
  });

  it('takes JSON that is not an object too: the server judges it', () => {
    expect(parsePayload('[]')).toEqual({ ok: true, value: [] });
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
