/** The webhook simulator's one call. Its shapes are the route contract's (types only: no zod in the bundle). */
import type { chatWebhook, DASHBOARD_SAMPLE_SUBSCRIBER, ReplyOf, RequestBodyOf } from '@bo/proto';

export type WebhookMessage = RequestBodyOf<typeof chatWebhook>;
export type WebhookReply = ReplyOf<typeof chatWebhook>;

export const webhookPath = '/api/manychat/webhook';

/** The contract's sample subscriber, written out (the value would bring zod along); its type makes the compiler check they agree. */
export const sampleSubscriber: typeof DASHBOARD_SAMPLE_SUBSCRIBER = { user_id: '9990000001', first_name: 'Dashboard' };

/** The webhook refuses a longer text (chatWebhookRequestSchema). */
export const MESSAGE_MAX_CHARACTERS = 4000;

export interface ReplyLink {
  caption: string;
  url: string;
}

/** What the chat shows of a reply: its first message's text (null when there is none) and that message's web links. */
export interface BotReply {
  text: string | null;
  links: ReplyLink[];
}

/**
 * Document 1 §7: the reply is at content.messages[0].text; an empty list (the subscriber is with a
 * person) has none. Flow buttons start a ManyChat flow, which the simulator cannot, so only links
 * to web pages are kept.
 */
export function botReply(reply: WebhookReply | null): BotReply {
  const first = reply?.content.messages[0];
  const links = (first?.buttons ?? []).flatMap((button) =>
    button.type === 'url' && /^https?:\/\//i.test(button.url) ? [{ caption: button.caption, url: button.url }] : [],
  );
  return { text: first?.text || null, links };
}
