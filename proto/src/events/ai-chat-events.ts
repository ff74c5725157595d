import { z } from 'zod';
import { defineEvent } from '../envelope';

/**
 * The AI's answer to a chat message came after the holding reply went out (issue 21): ManyChat
 * no longer waits for it, so notifications sends it through sendContent. `answerId` is the
 * answer's row in ai-chat's conversations; an answer is made once, so its revision is always 1.
 */
export const aiChatAnswerReady = defineEvent({
  name: 'ai-chat.answer.ready',
  version: 1,
  payload: z.object({
    answerId: z.number().int().positive(),
    revision: z.literal(1),
    subscriberId: z.string().min(1),
    text: z.string().min(1),
  }),
  entity: { name: 'chat-answer', key: 'answerId', revision: 'revision' },
  example: { answerId: 812, revision: 1, subscriberId: '1234567', text: 'Yes, we deliver the code by chat within minutes of payment.' },
});

/**
 * A subscriber wrote to the chat (the webhook saw it): their 24-hour messaging window is open
 * again from `at`. notifications sends what it held for them outside the window. `revision` is
 * the subscriber's message count, so an older one arriving late is skipped.
 */
export const aiChatSubscriberWrote = defineEvent({
  name: 'ai-chat.subscriber.wrote',
  version: 1,
  payload: z.object({
    subscriberId: z.string().min(1),
    revision: z.number().int().positive(),
    at: z.string(),
  }),
  entity: { name: 'chat-subscriber', key: 'subscriberId', revision: 'revision' },
  example: { subscriberId: '1234567', revision: 14, at: '2026-11-26T08:00:00.000Z' },
});

/**
 * A person took over a subscriber's chat, or handed it back (issue 21): while `paused` (until
 * `pausedUntil`, or until resumed when null) nothing automatic may reach them, a delayed message
 * included, so notifications keeps its own copy. `revision` is when it changed (ms), newest wins.
 */
export const aiChatAutomationChanged = defineEvent({
  name: 'ai-chat.automation.changed',
  version: 1,
  payload: z.object({
    subscriberId: z.string().min(1),
    revision: z.number().int().positive(),
    paused: z.boolean(),
    pausedUntil: z.string().nullable(),
  }),
  entity: { name: 'chat-automation', key: 'subscriberId', revision: 'revision' },
  example: { subscriberId: '1234567', revision: 1764144000000, paused: true, pausedUntil: '2026-11-26T10:00:00.000Z' },
});

/**
 * A subscriber asked about a product an admin routed to a ManyChat flow (a flow mapping on
 * /ai-admin): notifications sends them that flow (sendFlow) instead of the chat's own answer.
 * `requestId` is the subscriber's message (ai-chat's conversations row); a flow is sent once per message.
 */
export const aiChatFlowRequested = defineEvent({
  name: 'ai-chat.flow.requested',
  version: 1,
  payload: z.object({
    requestId: z.number().int().positive(),
    revision: z.literal(1),
    subscriberId: z.string().min(1),
    flowNamespace: z.string().min(1),
    /** The product the message named, for the delivery's record. */
    product: z.string(),
  }),
  entity: { name: 'chat-flow-request', key: 'requestId', revision: 'revision' },
  example: { requestId: 913, revision: 1, subscriberId: '1234567', flowNamespace: 'content20261126080000_123456', product: 'Netflix Premium - 1 сар' },
});
