import { z } from 'zod';
import { defineRoute, redirectReply } from './contract';
import { dynamicBlockSchema } from '../dynamic-block';
import { payerSchema } from '../money';

/**
 * The chat front door (issue 21): ManyChat's Dynamic Block step posts each message a subscriber
 * writes to POST /api/manychat/webhook (document 1 §7) and sends back what we answer. ai-chat
 * answers: prices from the price list, purchases through payments, everything else through the AI.
 */
const category = 'Chat';

/** The header the chat flow sends on every request; the same secret as the payment step's (issue 18 §1). */
export const CHAT_WEBHOOK_SECRET_HEADER = 'x-webhook-secret';

/** The dashboard's webhook simulator writes as this subscriber (document 1 §2: "a fixed sample user id"). */
export const DASHBOARD_SAMPLE_SUBSCRIBER = { user_id: '9990000001', first_name: 'Dashboard' } as const;

/** ManyChat's subscriber id: digits (it sends them as text or as a number). */
export const subscriberIdSchema = z.preprocess(
  (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : value),
  z.string({ error: 'user_id is required' }).trim().regex(/^\d{1,20}$/, 'user_id must be the subscriber id (digits)'),
);

export const chatWebhookRequestSchema = z.object({
  text: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string({ error: 'text is required' }).trim().min(1, 'text is required').max(4000, 'text is longer than 4000 characters')),
  user_id: subscriberIdSchema,
  first_name: z.preprocess((v) => (v === null ? undefined : v), z.string().trim().max(100).optional()),
});
export type ChatWebhookRequest = z.input<typeof chatWebhookRequestSchema>;

export const chatWebhook = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/manychat/webhook', access: 'public', category,
  body: chatWebhookRequestSchema,
  reply: dynamicBlockSchema,
  summary:
    "A subscriber's message from the chat flow, answered as a Dynamic Block v2 (prices from the price list, purchases with a payment link, the rest by the AI). Requires the header X-Webhook-Secret, or an administrator's session (the dashboard's simulator); an empty reply means nothing automatic is sent (the subscriber is with a person)",
  example: {
    body: { text: 'netflix 1 сар үнэ хэд вэ', user_id: '1234567', first_name: 'Бат-Эрдэнэ' },
    reply: {
      version: 'v2',
      content: { messages: [{ type: 'text', text: 'Netflix 1 month — 25,000₮', buttons: [{ type: 'url', caption: 'Авах / Buy', url: 'https://shop.example.mn/api/manychat/buy/eyJ' }] }] },
    },
  },
});

/** Whether a secret the chat sent is the chat flow's: payments keeps it (sealed, rotatable), ai-chat asks. */
export const checkChatWebhookSecret = defineRoute({
  owner: 'payments', method: 'POST', path: '/internal/payments/chat-webhook-secret/check', access: 'internal', callers: ['ai-chat'], category,
  body: z.object({ secret: z.string().max(200) }).strict(),
  reply: z.object({ matches: z.boolean() }),
  summary: "Whether a header's value is the chat flow's current X-Webhook-Secret (compared in constant time; the secret never leaves payments)",
  example: { body: { secret: 'not-the-secret' }, reply: { matches: false } },
});

/** A purchase started in the chat (issue 21). */
export const purchaseIntentStatuses = ['collecting_details', 'awaiting_payment', 'paid', 'expired'] as const;
export type PurchaseIntentStatus = (typeof purchaseIntentStatuses)[number];

/**
 * The Buy button under a price answer: a link only that subscriber's chat was given (a random
 * token of the purchase intent). Opening it makes the invoice at the server's price, once, and
 * goes on to the payment page.
 */
export const chatBuyLink = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/manychat/buy/:token', access: 'public', webhook: true, category,
  params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'Unknown purchase link') }),
  replyKind: 'redirect',
  reply: redirectReply,
  summary: "A Buy button's link: makes the purchase's invoice at the listed price (once) and redirects to its payment page; 404 for an unknown link, 410 for an expired one",
  example: { params: { token: 'q4Vw9m2Xc7LpR1sT8yZb3N' }, reply: undefined },
});

/** An invoice for a purchase the chat started: payments prices it from its own lists, never from the caller. */
export const createChatOrder = defineRoute({
  owner: 'payments', method: 'POST', path: '/internal/payments/chat-orders', access: 'internal', callers: ['ai-chat'], category,
  body: z.object({
    /** One per purchase intent (chat-intent:<id>): asking again answers the same invoice. */
    reference: z.string().min(1).max(100),
    /** A product of the price list by name, or a streaming code such as NFX-1M. */
    product: z.string().trim().min(1).max(255),
    payer: payerSchema,
  }).strict(),
  reply: z.object({ invoiceId: z.string(), description: z.string(), amount: z.number().int(), paymentUrl: z.string(), expiresAt: z.string(), created: z.boolean() }),
  summary: 'Make (or find by reference) the invoice of a chat purchase at the listed price; 404 when the product has no price',
  example: {
    body: { reference: 'chat-intent:41', product: 'Netflix Premium - 1 сар', payer: { name: 'Бат-Эрдэнэ', email: null, phone: null, subscriberId: '1234567' } },
    reply: { invoiceId: 'INV-7K3Q9X2M4P', description: 'Netflix Premium - 1 сар', amount: 36000, paymentUrl: 'https://shop.example.mn/payment/INV-7K3Q9X2M4P', expiresAt: '2026-11-27T08:00:00.000Z', created: true },
  },
});

export const conversationMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** How an answer was made: price, ai, holding, fallback; null for the subscriber's own message. */
  source: z.string().nullable(),
  timestamp: z.string(),
});

/** Document 2 §3 "Conversation": a subscriber's messages, with the pause a person set on them. */
export const conversationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  messages: z.array(conversationMessageSchema),
  lastActivity: z.string(),
  /** While set and not past, nothing automatic is sent to the subscriber; `until` null: until resumed. */
  pause: z.object({ until: z.string().nullable(), by: z.string() }).nullable(),
});
export type Conversation = z.infer<typeof conversationSchema>;

const userIdParams = z.object({ userId: subscriberIdSchema });
const exampleConversation: Conversation = {
  id: '1234567', userId: '1234567', lastActivity: '2026-11-26T08:00:00.000Z', pause: null,
  messages: [
    { role: 'user', content: 'netflix үнэ хэд вэ', source: null, timestamp: '2026-11-26T08:00:00.000Z' },
    { role: 'assistant', content: 'Netflix Premium - 1 сар — 36,000₮', source: 'price', timestamp: '2026-11-26T08:00:00.050Z' },
  ],
};

/** At most this many recent messages of each subscriber in the conversations list. */
export const CONVERSATION_MESSAGES_SHOWN = 50;

export const listConversations = defineRoute({
  owner: 'ai-chat', method: 'GET', path: '/api/admin/conversations', access: 'admin', category,
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  reply: z.object({ success: z.boolean(), data: z.array(conversationSchema) }),
  summary: `Subscribers' conversations, the most recently active first, each with its last ${CONVERSATION_MESSAGES_SHOWN} messages and its pause`,
  example: { query: { limit: 50 }, reply: { success: true, data: [exampleConversation] } },
});

export const deleteConversation = defineRoute({
  owner: 'ai-chat', method: 'DELETE', path: '/api/admin/conversations/:userId', access: 'admin', category,
  params: userIdParams,
  reply: z.object({ success: z.boolean(), deleted: z.number().int() }),
  summary: "Remove one subscriber's chat history (their messages and our answers)",
  example: { params: { userId: '1234567' }, reply: { success: true, deleted: 12 } },
});

/** The longest pause an admin may set in hours (a week); no hours: until resumed. */
export const MAX_PAUSE_HOURS = 168;

export const pauseAutomation = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/conversations/:userId/pause', access: 'admin', category,
  params: userIdParams,
  body: z.object({
    hours: z.number({ error: 'Hours must be a number' }).int('Hours must be a whole number').min(1, 'Hours must be at least 1').max(MAX_PAUSE_HOURS, `Hours must be at most ${MAX_PAUSE_HOURS}`).nullable().default(null),
    reason: z.string().trim().max(200).optional(),
  }),
  reply: z.object({ success: z.boolean(), data: z.object({ until: z.string().nullable(), by: z.string() }) }),
  summary: 'A person takes over: nothing automatic is sent to the subscriber for N hours, or until resumed (hours null)',
  example: { params: { userId: '1234567' }, body: { hours: 2 }, reply: { success: true, data: { until: '2026-11-26T10:00:00.000Z', by: 'ops' } } },
});

export const resumeAutomation = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/conversations/:userId/resume', access: 'admin', category,
  params: userIdParams,
  reply: z.object({ success: z.boolean() }),
  summary: 'Automation answers the subscriber again',
  example: { params: { userId: '1234567' }, reply: { success: true } },
});

export const cleanupConversations = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/admin/cleanup-conversations', access: 'admin', category,
  reply: z.object({ success: z.boolean(), deleted: z.number().int() }),
  summary: 'Remove conversation messages older than 7 days (a daily schedule does the same)',
  example: { reply: { success: true, deleted: 340 } },
});

/** The chat's daily clean-up: conversations older than 7 days, and purchases whose link or invoice ran out (document 2 §9). */
export const CONVERSATION_CLEANUP_CRON = '17 3 * * *';

export const testAiChat = defineRoute({
  owner: 'ai-chat', method: 'POST', path: '/api/ai/chat', access: 'admin', category,
  body: z.object({ message: z.string({ error: 'Message is required' }).trim().min(1, 'Message is required').max(4000, 'Message is longer than 4000 characters') }),
  reply: z.object({
    success: z.boolean(),
    data: z.object({
      /** The answer, or null when no provider answered. */
      reply: z.string().nullable(),
      /** The provider that answered (family and model); null when none did. */
      provider: z.string().nullable(),
      model: z.string().nullable(),
      durationMs: z.number().int(),
    }),
  }),
  summary: "One message answered as the chat's AI would (its prompt, the price list), without a conversation: the answer, the provider that gave it and the time taken",
  example: { body: { message: 'Do you deliver on Sundays?' }, reply: { success: true, data: { reply: 'Yes, every day.', provider: 'openai', model: 'gpt-4o-mini', durationMs: 812 } } },
});

export const chatRoutes = [testAiChat, chatWebhook, checkChatWebhookSecret, chatBuyLink, createChatOrder, listConversations, deleteConversation, pauseAutomation, resumeAutomation, cleanupConversations];
