import { dynamicBlock, type TemplateKind } from '@bo/proto';
import { ManyChatError, TemplateRefused, type ManyChatClient } from '../clients/manychat';
import type { ChatMessage } from '../domain/templates';
import type { PrismaClient } from '../generated/prisma/client';
import { chatPausesStore } from '../store/chat-pauses-store';
import { chatSubscribersStore, MESSAGING_WINDOW_MS } from '../store/chat-subscribers-store';
import { settingsStore } from '../store/settings-store';

export const NOT_CONFIGURED = 'ManyChat API is not configured';
/** Why a chat answer outside the window is not sent: no utility template fits a free-form answer. */
export const CHAT_ANSWER_OUTSIDE_WINDOW = 'Outside the 24-hour window: a chat answer has no utility template, so it was not sent';

const kindNames: Record<TemplateKind, string> = {
  key_delivery: 'key deliveries',
  payment_confirmation: 'payment confirmations',
  renewal_reminder: 'renewal reminders',
  key_extension: 'key extensions',
  alert: 'alerts',
};

/** Why a message of `kind` cannot go now: nothing may carry it outside the window until an admin names a template. */
export const noTemplateReason = (kind: TemplateKind) => `Outside the 24-hour window and no utility template is set for ${kindNames[kind]} (/manychat-admin)`;

/** Why a message cannot go now when ManyChat refused its kind's template (not approved, renamed, a placeholder it lacks). */
const refusedTemplateReason = (templateName: string, refusal: string) => `Outside the 24-hour window and ManyChat refused the utility template "${templateName}" (${refusal})`;

/** Why a message waits while a person has the subscriber's chat (a pause set on /ai-admin). */
const PAUSED_REASON = 'A person has taken over this chat (automation paused)';

/** ManyChat is not configured: nothing to retry until someone sets MANYCHAT_API_TOKEN. */
export class NotConfiguredError extends Error {
  constructor() {
    super(NOT_CONFIGURED);
    this.name = 'NotConfiguredError';
  }
}

/** The utility template a held message was decided on: its kind, and the name set then (null: none). */
export interface TriedTemplate {
  kind: TemplateKind;
  name: string | null;
}

/**
 * What became of one send. Held: `cause` says why it cannot go now, `reason` adds until when it
 * waits, `refused` when ManyChat refused the kind's template, `template` the template it was decided on. `seen`: the subscriber's last interaction the decision was made on
 * (its revision; null when the chat never told us), so holding can tell whether they wrote since.
 */
export type SendOutcome =
  | { status: 'sent'; templateName: string | null }
  | { status: 'held'; reason: string; cause: string; seen: number | null; refused?: true; template?: TriedTemplate }
  | { status: 'not_sent'; reason: string };

/**
 * Sends chat messages through ManyChat within Messenger's rules since Meta deprecated the message
 * tags (external-apis.md §2, "Changed in 2026"), never while a person has taken over the chat
 * (held, like a message with no template): inside 24 hours of the subscriber's last message
 * as text; outside, only through the approved utility template set for the message's kind, or not
 * at all (held, or for a chat answer not sent).
 */
export class ChatMessenger {
  constructor(
    private readonly client: ManyChatClient | null,
    private readonly prisma: PrismaClient,
  ) {}

  get configured(): boolean {
    return this.client !== null;
  }

  /** The longest one send may take: two calls (the text refused as outside the window, then the template). */
  get sendDeadlineMs(): number {
    return this.client ? 2 * this.client.sendDeadlineMs : 0;
  }

  /**
   * Where the window stands is our record of the subscriber's last message (ai-chat.subscriber.wrote).
   * With no record (they never wrote through the chat webhook) the text is tried, and ManyChat's 3011
   * says the window is closed; a 3011 despite a recent record (they wrote by another way we missed,
   * or the clocks differ) is believed too. Aborting `signal` stops it between and during tries.
   */
  async send(subscriberId: string, message: ChatMessage, signal?: AbortSignal): Promise<SendOutcome> {
    if (!this.client) throw new NotConfiguredError();
    const last = await chatSubscribersStore.lastInteraction(this.prisma, subscriberId);
    const held = (cause: string, until: string, more: { refused?: true; template?: TriedTemplate } = {}): SendOutcome => ({ status: 'held', cause, reason: `${cause}: held until ${until}`, seen: last?.revision ?? null, ...more });
    // Nothing automatic while a person has the chat, however late the message was made.
    if (await chatPausesStore.isPaused(this.prisma, subscriberId)) return held(PAUSED_REASON, 'the subscriber writes after it resumes');
    if (!last || Date.now() - last.at.getTime() <= MESSAGING_WINDOW_MS) {
      try {
        if (message.flowNamespace) await this.client.sendFlow(subscriberId, message.flowNamespace, signal);
        else await this.client.sendContent(subscriberId, dynamicBlock([{ text: message.text }]), signal);
        return { status: 'sent', templateName: null };
      } catch (error) {
        if (!(error instanceof ManyChatError) || !error.outsideWindow) throw error;
      }
    }
    if (!message.template) return { status: 'not_sent', reason: CHAT_ANSWER_OUTSIDE_WINDOW };
    const templateName = (await settingsStore.read(this.prisma)).templates[message.template.kind];
    const tried = { kind: message.template.kind, name: templateName };
    if (!templateName) return held(noTemplateReason(message.template.kind), 'the subscriber writes', { template: tried });
    try {
      await this.client.sendTemplate(subscriberId, templateName, message.template.variables, signal);
    } catch (error) {
      // Not approved, renamed, or a placeholder it lacks: no retry fixes it, an admin's new template does (saving it sends what is held).
      // Any other refusal (a bad token, a blocked subscriber) fails the message as before.
      if (error instanceof TemplateRefused) return held(refusedTemplateReason(templateName, error.message), 'the subscriber writes or a template is saved (/manychat-admin)', { refused: true, template: tried });
      throw error;
    }
    return { status: 'sent', templateName };
  }
}
