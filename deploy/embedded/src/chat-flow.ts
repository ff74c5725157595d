/**
 * The chat flow as a shop sets it up in ManyChat: every message a subscriber writes goes to our
 * chat webhook (a Dynamic Block step with the subscriber's text), and the payment step (an
 * External Request, `step: 'payment'` on the driver) posts the payment custom fields; both with
 * the X-Webhook-Secret header. The launchers set it on the ManyChat simulator, so its driver (and
 * a person on its /__sim/ page) reaches the webhooks the way the chat does.
 */
export const CHAT_MESSAGE_BODY_TEMPLATE = JSON.stringify({ user_id: '{{user_id}}', text: '{{last_input_text}}', first_name: '{{first_name}}' });

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

/** The driver's step names: the default one is the chat webhook. */
export const PAYMENT_STEP = 'payment';

export async function configureChatFlow(manychatUrl: string, publicUrl: string, secret: string): Promise<void> {
  const headers = { 'X-Webhook-Secret': secret };
  const response = await fetch(`${manychatUrl}/__sim/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      webhookUrl: `${publicUrl}/api/manychat/webhook`,
      webhookHeaders: headers,
      bodyTemplate: CHAT_MESSAGE_BODY_TEMPLATE,
      steps: { [PAYMENT_STEP]: { url: `${publicUrl}/api/qpay/webhook`, headers, bodyTemplate: CHAT_PAYMENT_BODY_TEMPLATE } },
    }),
  });
  if (!response.ok) throw new Error(`the ManyChat simulator refused the chat flow's settings: ${response.status} ${await response.text()}`);
}
