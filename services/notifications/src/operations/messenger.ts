import { ManyChatError, type ManyChatClient, type MessageTag } from '../clients/manychat';
import { dynamicBlock } from '@bo/proto';

export const NOT_CONFIGURED = 'ManyChat API is not configured';

/**
 * When a message may carry a message tag: reminders always; purchase messages only outside the
 * 24-hour window; a chat answer never (no tag fits it: outside the window it is not sent).
 */
export interface TagPolicy {
  tag: MessageTag | null;
  always: boolean;
}

/** Purchase messages (key delivery, payment and renewal confirmations): tagged only when ManyChat says the window is closed. */
export const PURCHASE_UPDATE: TagPolicy = { tag: 'POST_PURCHASE_UPDATE', always: false };
/** Renewal reminders go out days after the last interaction: always an account update. */
export const ACCOUNT_UPDATE: TagPolicy = { tag: 'ACCOUNT_UPDATE', always: true };
/** The chat's late AI answers: inside the 24-hour window only (the subscriber has just written). */
export const IN_WINDOW_ONLY: TagPolicy = { tag: null, always: false };

/** ManyChat is not configured: nothing to retry until someone sets MANYCHAT_API_TOKEN. */
export class NotConfiguredError extends Error {
  constructor() {
    super(NOT_CONFIGURED);
    this.name = 'NotConfiguredError';
  }
}

/** Sends text messages through ManyChat, keeping to the 24-hour window rule (external-apis.md §2). */
export class ChatMessenger {
  constructor(private readonly client: ManyChatClient | null) {}

  get configured(): boolean {
    return this.client !== null;
  }

  /** The longest one send may take: two sendContent calls (untagged, then tagged outside the window). */
  get sendDeadlineMs(): number {
    return this.client ? 2 * this.client.sendDeadlineMs : 0;
  }

  /**
   * Sends `text`; outside the 24-hour window (ManyChat's 3011) it is sent once more with the
   * policy's tag. Answers the tag it went out with (null: inside the window, untagged). Aborting
   * `signal` stops it between and during tries.
   */
  async send(subscriberId: string, text: string, policy: TagPolicy, signal?: AbortSignal): Promise<{ messageTag: MessageTag | null }> {
    if (!this.client) throw new NotConfiguredError();
    const block = dynamicBlock([{ text }]);
    if (policy.always && policy.tag) {
      await this.client.sendContent(subscriberId, block, policy.tag, signal);
      return { messageTag: policy.tag };
    }
    try {
      await this.client.sendContent(subscriberId, block, undefined, signal);
      return { messageTag: null };
    } catch (error) {
      if (!(error instanceof ManyChatError) || !error.outsideWindow || !policy.tag) throw error;
      await this.client.sendContent(subscriberId, block, policy.tag, signal);
      return { messageTag: policy.tag };
    }
  }
}
