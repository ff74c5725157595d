/**
 * The payment step of the chat flow, as a shop sets it up in ManyChat (an External Request): our
 * webhook, the payment custom fields as its body, and the X-Webhook-Secret header. The launchers
 * set it on the ManyChat simulator, so its driver (and a person on its /__sim/ page) reaches the
 * webhook the way the chat does.
 */
export const CHAT_PAYMENT_BODY_TEMPLATE = JSON.stringify({
  user_id: '{{user_id}}',
  first_name: '{{first_name}}',
  last_name: '{{last_name}}',
  custom_fields: { invoice_code: '{{invoice_code}}', invoice_id: '{{invoice_id}}', amount: '{{amount}}' },
});

/** payments' part of it: the secret it checks now, and each new one Rotate makes (payments' `exposed.webhookSecret`). */
export interface ChatWebhookSecret {
  current(): Promise<string>;
  onRotate(listener: (secret: string) => Promise<void>): () => void;
}

export async function configureChatFlow(manychatUrl: string, webhookUrl: string, secret: string): Promise<void> {
  const response = await fetch(`${manychatUrl}/__sim/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhookUrl, webhookHeaders: { 'X-Webhook-Secret': secret }, bodyTemplate: CHAT_PAYMENT_BODY_TEMPLATE }),
  });
  if (!response.ok) throw new Error(`the ManyChat simulator refused the chat flow's settings: ${response.status} ${await response.text()}`);
}
