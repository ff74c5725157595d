import { apiRequest } from '../../lib/api';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
import { sampleSubscriber, webhookPath, type WebhookMessage, type WebhookReply } from './api';

/** Nothing cached changes: a message is answered, not stored where the dashboard reads. */
export const useSendToWebhook = (options?: CallerOptions<WebhookReply | null, string>) =>
  useInvalidatingMutation(
    (text: string) => apiRequest<WebhookReply | null>('POST', webhookPath, { text, ...sampleSubscriber } satisfies WebhookMessage),
    [],
    options,
  );
