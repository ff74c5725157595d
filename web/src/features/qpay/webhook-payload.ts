import type { ChatPaymentRequest } from './api';

/**
 * Document 3 §7's test-webhook payload, as the chat flow sends it: the subscriber, and in custom
 * fields what to pay for (NFX-1M: Netflix for one month), the chat's order reference and the amount
 * (the chat sends custom fields as text).
 */
export const SAMPLE_CHAT_PAYMENT: ChatPaymentRequest = {
  user_id: '1234567',
  first_name: 'Бат-Эрдэнэ',
  last_name: 'Болд',
  email: 'bat@example.mn',
  phone: '99112233',
  custom_fields: { invoice_code: 'NFX-1M', invoice_id: 'TEST-1001', amount: '35000' },
};

export const samplePayloadText = () => JSON.stringify(SAMPLE_CHAT_PAYMENT, null, 2);

export interface ChatReplyMessage {
  text: string;
  links: { caption: string; url: string }[];
}

/** The messages of a Dynamic Block reply (external-apis.md §2) with their URL buttons; [] for anything else. */
export function chatReplyMessages(response: unknown): ChatReplyMessage[] {
  const messages = (response as { content?: { messages?: unknown } } | null)?.content?.messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: unknown) => {
    const { text, buttons } = (message ?? {}) as { text?: unknown; buttons?: unknown };
    if (typeof text !== 'string') return [];
    const links = (Array.isArray(buttons) ? buttons : []).flatMap((button: unknown) => {
      const { caption, url } = (button ?? {}) as { caption?: unknown; url?: unknown };
      return typeof url === 'string' ? [{ caption: typeof caption === 'string' ? caption : url, url }] : [];
    });
    return [{ text, links }];
  });
}
