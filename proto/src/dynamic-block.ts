import { z } from 'zod';

/**
 * ManyChat's Dynamic Block v2 (shared/reference/external-apis.md §2), the part we send: text
 * messages with URL or flow buttons. Its limits are ManyChat's and Messenger's: at most 10
 * messages, 3 buttons a message, 2,000 characters a text. Every reply we give the chat and every
 * message we push through sendContent is one of these, built by `dynamicBlock` below.
 */
export const DYNAMIC_BLOCK_LIMITS = { messages: 10, buttons: 3, textCharacters: 2000, captionCharacters: 20 } as const;

const urlButtonSchema = z.object({
  type: z.literal('url'),
  caption: z.string().min(1).max(DYNAMIC_BLOCK_LIMITS.captionCharacters),
  url: z.string().min(1),
  webview_size: z.enum(['full', 'medium', 'compact']).optional(),
});
/** Starts one of the bot's flows, by its namespace. */
const flowButtonSchema = z.object({ type: z.literal('flow'), caption: z.string().min(1).max(DYNAMIC_BLOCK_LIMITS.captionCharacters), target: z.string().min(1) });
export const dynamicBlockButtonSchema = z.discriminatedUnion('type', [urlButtonSchema, flowButtonSchema]);
export type DynamicBlockButton = z.infer<typeof dynamicBlockButtonSchema>;

export const dynamicBlockTextSchema = z.object({
  type: z.literal('text'),
  text: z.string().min(1).max(DYNAMIC_BLOCK_LIMITS.textCharacters),
  buttons: z.array(dynamicBlockButtonSchema).max(DYNAMIC_BLOCK_LIMITS.buttons).optional(),
});
export type DynamicBlockText = z.infer<typeof dynamicBlockTextSchema>;

export const dynamicBlockSchema = z.object({
  version: z.literal('v2'),
  content: z.object({ messages: z.array(dynamicBlockTextSchema).max(DYNAMIC_BLOCK_LIMITS.messages) }),
});
export type DynamicBlock = z.infer<typeof dynamicBlockSchema>;

/** A text and the buttons under it, before it is cut to ManyChat's limits. */
export interface OutgoingText {
  text: string;
  buttons?: DynamicBlockButton[];
}

/**
 * Splits `text` into pieces of at most `limit` characters, at a paragraph, line or word break
 * where one is near the end of the piece (never mid-word unless a word is longer than the piece).
 */
export function splitText(text: string, limit: number = DYNAMIC_BLOCK_LIMITS.textCharacters): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    const breakAt = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf(' '));
    const end = breakAt > limit / 2 ? breakAt : limit;
    pieces.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * The Dynamic Block of `messages`, within ManyChat's limits: a long text goes out as several
 * messages (its buttons under the last), past 10 messages the rest is cut with an ellipsis, and
 * a message keeps its first 3 buttons. An empty list gives no messages (ManyChat sends nothing).
 */
export function dynamicBlock(messages: OutgoingText[]): DynamicBlock {
  const out: DynamicBlockText[] = [];
  for (const message of messages) {
    const pieces = splitText(message.text);
    pieces.forEach((text, index) => {
      const buttons = index === pieces.length - 1 ? message.buttons?.slice(0, DYNAMIC_BLOCK_LIMITS.buttons) : undefined;
      out.push({ type: 'text', text, ...(buttons && buttons.length > 0 ? { buttons } : {}) });
    });
  }
  if (out.length > DYNAMIC_BLOCK_LIMITS.messages) {
    out.length = DYNAMIC_BLOCK_LIMITS.messages;
    const last = out[out.length - 1];
    last.text = `${last.text.slice(0, DYNAMIC_BLOCK_LIMITS.textCharacters - 1)}…`;
  }
  return { version: 'v2', content: { messages: out } };
}
