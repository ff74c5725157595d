import { z } from 'zod';
import { defineRoute, successReply } from './contract';
import { textNumbers, wholeNumber } from './fields';
import { EMAIL_MAX, invoiceOrderSchema, payerSchema, qpayInvoiceStatuses, refundMethods } from '../money';
import { dynamicBlockSchema } from '../dynamic-block';

/** Our invoice id: `INV-` and ten random uppercase letters and digits (never guessable from another). */
export const invoiceIdSchema = z.string().trim().regex(/^INV-[A-Z0-9]{10}$/, 'Invalid invoice id');
const invoiceParams = z.object({ invoiceId: invoiceIdSchema });
const adminInvoiceParams = z.object({ id: invoiceIdSchema });

/** A whole number of tugrik, sent as a number or digits (the chat sends custom fields as text). */
const tugrik = (what: string) => {
  const schema = z.union([z.string().trim().regex(/^\d+(\.0+)?$/, `${what} must be a whole number of tugrik`).transform(Number), z.number()])
    .pipe(z.number().int(`${what} must be a whole number of tugrik`).positive(`${what} must be more than 0`).max(100_000_000));
  textNumbers.add(schema, { why: 'ManyChat sends custom fields as text' });
  return schema;
};
const optionalText = (max: number) => z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'number' ? String(v) : v), z.string().trim().max(max).optional());

/** A bank or wallet app's deep link for the invoice (QPay's `urls[]`). */
export const paymentUrlSchema = z.object({ name: z.string(), description: z.string(), logo: z.string(), link: z.string() });

/** What the public payment page shows (document 3 §3 "Invoice view"). */
export const invoiceViewSchema = z.object({
  invoiceId: z.string(),
  qpayInvoiceId: z.string().nullable(),
  description: z.string(),
  status: z.enum(qpayInvoiceStatuses),
  customerName: z.string().nullable(),
  amount: z.number().int(),
  /** A data: URL of the QR PNG QPay made; null when QPay made none. */
  qrImage: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  paymentUrls: z.array(paymentUrlSchema),
});
export type InvoiceView = z.infer<typeof invoiceViewSchema>;

/** An invoice as the /qpay page lists it. */
export const invoiceRecordSchema = z.object({
  invoiceId: z.string(),
  senderInvoiceNo: z.string(),
  qpayInvoiceId: z.string().nullable(),
  description: z.string(),
  amount: z.number().int(),
  status: z.enum(qpayInvoiceStatuses),
  /** Why an admin must look at this pending invoice (e.g. a partial payment); null otherwise. */
  flag: z.string().nullable(),
  payer: payerSchema,
  order: invoiceOrderSchema,
  environment: z.enum(['sandbox', 'production']),
  /** The public payment page, e.g. https://shop.example.mn/payment/INV-…. */
  paymentUrl: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  paymentId: z.string().nullable(),
  approvedBy: z.string().nullable(),
  /** When QPay's payment check was last asked about it. */
  lastCheckedAt: z.string().nullable(),
  /** A paid invoice whose money went back to the payer: when, who, and how. */
  refund: z.object({ at: z.string(), by: z.string(), method: z.enum(refundMethods) }).nullable(),
});
export type InvoiceRecord = z.infer<typeof invoiceRecordSchema>;

export const webhookLogSchema = z.object({
  id: z.number().int(),
  /** callback, webhook, test-webhook, check (reconciliation or a re-check), approve, expire. */
  type: z.string(),
  /** The invoice it concerns, when known. */
  reference: z.string().nullable(),
  /** accepted (changed something), ignored (nothing to do), rejected (forged or wrong), error. */
  status: z.enum(['accepted', 'ignored', 'rejected', 'error']),
  requestData: z.unknown(),
  responseData: z.unknown(),
  responseTime: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookLog = z.infer<typeof webhookLogSchema>;

export const qpayEnvironmentSchema = z.enum(['sandbox', 'production'], { error: 'Environment must be sandbox or production' });
/** The settings as the page reads them: the secret is never sent back, only whether it is set and its last characters. */
export const qpaySettingsViewSchema = z.object({
  qpayClientId: z.string(),
  qpayClientSecret: z.string(),
  qpayClientSecretSet: z.boolean(),
  /** Why the stored secret cannot be opened (sealed with a key this server does not have), or null. */
  qpayClientSecretUnreadable: z.string().nullable(),
  qpayInvoiceCode: z.string(),
  qpayCallbackUrl: z.string(),
  qpayEnvironment: qpayEnvironmentSchema,
  enabled: z.boolean(),
  /** The inbound paths to configure at QPay and in the chat flow (document 3 §2). */
  webhookPath: z.string(),
  callbackPath: z.string(),
  /** The full addresses QPay and the chat will be given. */
  webhookUrl: z.string(),
  callbackUrl: z.string(),
  updatedAt: z.string().nullable(),
  /** The chat flow's X-Webhook-Secret, masked (the whole value only through the admin-only reveal). */
  webhookSecret: z.string(),
  /** Why the stored webhook secret cannot be opened (its data key is missing, named by id); null when it can. */
  webhookSecretUnreadable: z.string().nullable(),
  /** When the webhook secret was last rotated; null while it is still the one the deployment started with. */
  webhookSecretRotatedAt: z.string().nullable(),
});
export type QpaySettingsView = z.infer<typeof qpaySettingsViewSchema>;

/**
 * What the chat flow posts to /api/qpay/webhook (document 3 §7 test-webhook): the subscriber and,
 * in custom fields, what to pay for. `invoice_code` is the product: a streaming code such as
 * NFX-1M (service and months: the key is delivered when paid) or any other product name of the
 * price list; `amount` must be that product's listed price (the server prices every order);
 * `invoice_id` is the chat's own order reference (the same reference with the same body answers
 * the same invoice; with another body it is refused).
 */
export const chatPaymentRequestSchema = z.object({
  user_id: z.union([z.string().trim().regex(/^\d+$/, 'user_id must be the subscriber id'), z.number().int().positive()]).transform(String),
  first_name: optionalText(100),
  last_name: optionalText(100),
  email: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().email('Invalid email address').max(EMAIL_MAX).optional()),
  phone: optionalText(40),
  custom_fields: z.object({
    invoice_code: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1, 'custom_fields.invoice_code is required').max(100)),
    invoice_id: optionalText(45),
    amount: tugrik('custom_fields.amount'),
  }),
});
export type ChatPaymentRequest = z.input<typeof chatPaymentRequestSchema>;

const category = 'Bank payments';
const exampleUrls = [{ name: 'Khan bank', description: 'Хаан банк', logo: 'https://qpay.mn/q/logo/khanbank.png', link: 'khanbank://q?qPay_QRcode=0002010102121531279404962794049600022310027138152045734530349654031005802MN5904TEST6011ULAANBAATAR6244010712345670504test0721qWlrS9_HXPAmNNtrBSrRH6304B9A4' }];
const examplePayer = { name: 'Бат-Эрдэнэ', email: 'bat@example.mn', phone: '99112233', subscriberId: '1234567' };
const exampleView: InvoiceView = {
  invoiceId: 'INV-7K3Q9X2M4P', qpayInvoiceId: 'a8bd2e5f-47c1-4bd4-9a5b-2f0d2a4bb0d1', description: 'Netflix 1 сар', status: 'pending', customerName: 'Бат-Эрдэнэ',
  amount: 35000, qrImage: 'data:image/png;base64,iVBORw0KGgo=', createdAt: '2026-11-23T08:00:00.000Z', paidAt: null, paymentUrls: exampleUrls,
};
const exampleRecord: InvoiceRecord = {
  invoiceId: 'INV-7K3Q9X2M4P', senderInvoiceNo: 'INV-7K3Q9X2M4P', qpayInvoiceId: 'a8bd2e5f-47c1-4bd4-9a5b-2f0d2a4bb0d1', description: 'Netflix 1 сар', amount: 35000,
  status: 'pending', flag: null, payer: examplePayer, order: { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'bat@example.mn', streamingInvoiceId: 12 },
  environment: 'sandbox', paymentUrl: 'https://shop.example.mn/payment/INV-7K3Q9X2M4P', createdAt: '2026-11-23T08:00:00.000Z', expiresAt: '2026-11-24T08:00:00.000Z',
  paidAt: null, paymentId: null, approvedBy: null, lastCheckedAt: null, refund: null,
};
const exampleChatRequest = { user_id: '1234567', first_name: 'Бат-Эрдэнэ', last_name: 'Болд', email: 'bat@example.mn', phone: '99112233', custom_fields: { invoice_code: 'NFX-1M', invoice_id: 'MC-1001', amount: '35000' } };
const exampleChatReply = {
  version: 'v2' as const,
  content: { messages: [{ type: 'text' as const, text: 'Netflix 1 сар — 35,000₮. Төлөхийн тулд доорх товчийг дарна уу.', buttons: [{ type: 'url' as const, caption: 'Төлөх / Pay', url: 'https://shop.example.mn/payment/INV-7K3Q9X2M4P', webview_size: 'full' as const }] }] },
};
const limitQuery = (fallback: number) => z.object({ limit: z.coerce.number().int().min(1).max(200).default(fallback) });

/** A new invoice at QPay for our own order (streaming-keys' orders and renewals). The reference makes a retry answer the same invoice. */
export const createPaymentInvoice = defineRoute({
  owner: 'payments', method: 'POST', path: '/internal/payments/invoices', access: 'internal', callers: ['streaming-keys'], category,
  body: z.object({
    /** Unique per order, e.g. streaming-invoice:12; the same reference answers the existing invoice. */
    reference: z.string().min(1).max(100),
    description: z.string().trim().min(1).max(255),
    amount: z.number().int().positive(),
    payer: payerSchema,
    order: invoiceOrderSchema,
  }).strict(),
  reply: z.object({ invoice: invoiceRecordSchema, view: invoiceViewSchema, created: z.boolean() }),
  summary: 'Create (or find by reference) the QPay invoice of one of our orders',
  example: {
    body: { reference: 'streaming-invoice:12', description: 'Netflix 1 сар', amount: 35000, payer: examplePayer, order: exampleRecord.order },
    reply: { invoice: exampleRecord, view: exampleView, created: true },
  },
});

export const getPaymentInvoice = defineRoute({
  owner: 'payments', method: 'GET', path: '/internal/payments/invoices/:invoiceId', access: 'internal', callers: ['streaming-keys'], category,
  params: invoiceParams,
  reply: z.object({ invoice: invoiceRecordSchema }),
  summary: 'One invoice with its order (for a service that made it)',
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, reply: { invoice: exampleRecord } },
});

export const createInvoice = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/create-invoice', access: 'admin', category,
  body: z.object({
    customer_name: z.string().trim().min(1, 'customer_name is required').max(255),
    product_name: z.string().trim().min(1, 'product_name is required').max(255),
    amount: wholeNumber('amount must be a whole number of tugrik').positive('amount must be more than 0').max(100_000_000),
    subscriber_id: optionalText(64),
    customer_email: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().email('Invalid email address').max(EMAIL_MAX).optional()),
    customer_phone: optionalText(40),
  }).strict(),
  reply: z.object({ success: z.boolean(), invoiceId: z.string(), paymentUrl: z.string(), invoice: invoiceViewSchema }),
  summary: 'Create a QPay invoice for a custom payment (product name and amount); answers the payment page link',
  example: {
    body: { customer_name: 'Бат-Эрдэнэ', product_name: 'PUBG Mobile 660 UC', amount: 38000, subscriber_id: '1234567', customer_email: 'bat@example.mn', customer_phone: '99112233' },
    reply: { success: true, invoiceId: 'INV-7K3Q9X2M4P', paymentUrl: 'https://shop.example.mn/payment/INV-7K3Q9X2M4P', invoice: { ...exampleView, description: 'PUBG Mobile 660 UC', amount: 38000 } },
  },
});

export const invoiceView = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/invoice/:invoiceId', access: 'public', category,
  params: invoiceParams,
  reply: invoiceViewSchema,
  summary: 'The public payment page: description, status, amount, QR and bank links (checks QPay at most every few seconds while pending)',
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, reply: exampleView },
});

export const invoiceStatus = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/invoice/:invoiceId/status', access: 'public', category,
  params: invoiceParams,
  reply: z.object({ invoiceId: z.string(), status: z.enum(qpayInvoiceStatuses), paidAt: z.string().nullable() }),
  summary: "An invoice's status only",
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, reply: { invoiceId: 'INV-7K3Q9X2M4P', status: 'paid', paidAt: '2026-11-23T08:01:12.000Z' } },
});

export const invoicesOfUser = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/invoices/user/:userId', access: 'admin', category,
  params: z.object({ userId: z.string().trim().min(1).max(64) }),
  reply: z.object({ data: z.array(invoiceRecordSchema) }),
  summary: "A chat subscriber's invoices, newest first",
  example: { params: { userId: '1234567' }, reply: { data: [exampleRecord] } },
});

export const recentInvoices = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/invoices/recent', access: 'admin', category,
  query: limitQuery(10),
  reply: z.object({ data: z.array(invoiceRecordSchema) }),
  summary: 'The newest invoices (default 10)',
  example: { query: { limit: 10 }, reply: { data: [exampleRecord] } },
});

export const pendingInvoices = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/invoices/pending', access: 'admin', category,
  reply: z.object({ data: z.array(invoiceRecordSchema) }),
  summary: 'Invoices waiting for payment, flagged ones first (the Invoices tab: Approve, Delete, Re-check)',
  example: { reply: { data: [exampleRecord] } },
});

export const recheckInvoice = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/invoices/:invoiceId/check', access: 'admin', category,
  params: invoiceParams,
  reply: z.object({ invoice: invoiceRecordSchema, paidAmount: z.number().int(), message: z.string() }),
  summary: 'Ask QPay again whether an invoice was paid, and complete it if it was (a missed order)',
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, reply: { invoice: { ...exampleRecord, status: 'paid', paidAt: '2026-11-23T08:01:12.000Z', paymentId: '459812345678901' }, paidAmount: 35000, message: 'Paid 35,000₮: the order is completed' } },
});

/** The invoice a per-invoice callback URL names (its own schema: the payments service checks it before the route). */
export const qpayCallbackParams = z.object({ invoiceId: z.string().max(100) });
const callbackQuery = z.object({ token: z.string().max(200).optional(), qpay_payment_id: z.string().max(64).optional() });
const callbackReply = z.object({ status: z.string(), message: z.string() });

export const qpayCallbackGet = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/callback/:invoiceId', access: 'public', webhook: true, category,
  params: qpayCallbackParams,
  query: callbackQuery,
  reply: callbackReply,
  summary: "QPay's payment callback (GET with qpay_payment_id); a hint only: the payment is checked with QPay before anything changes",
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, query: { token: 'f3c1…', qpay_payment_id: '459812345678901' }, reply: { status: 'SUCCESS', message: 'paid' } },
});

export const qpayCallbackPost = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/callback/:invoiceId', access: 'public', webhook: true, category,
  params: qpayCallbackParams,
  query: callbackQuery,
  body: z.object({ payment_id: z.string().max(64).optional(), object_id: z.string().max(100).optional(), object_type: z.string().max(20).optional() }).passthrough(),
  reply: callbackReply,
  summary: "QPay's payment callback, POST variant; checked with QPay like the GET",
  example: { params: { invoiceId: 'INV-7K3Q9X2M4P' }, query: { token: 'f3c1…' }, body: { payment_id: '459812345678901', object_type: 'INVOICE', object_id: 'a8bd2e5f-47c1-4bd4-9a5b-2f0d2a4bb0d1' }, reply: { status: 'SUCCESS', message: 'paid' } },
});

export const qpayCallbackLegacy = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/callback', access: 'public', webhook: true, category,
  body: z.object({ invoice_id: z.string().min(1, 'invoice_id is required').max(100), payment_status: z.string().max(40).optional(), payment_id: z.string().max(64).optional() }).passthrough(),
  reply: callbackReply,
  summary: 'A payment notice naming our or QPay\'s invoice id; its payment_status is never believed, the invoice is checked with QPay',
  example: { body: { invoice_id: 'INV-7K3Q9X2M4P', payment_status: 'PAID', payment_id: '459812345678901' }, reply: { status: 'SUCCESS', message: 'paid' } },
});

export const chatPaymentWebhook = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/webhook', access: 'public', webhook: true, category,
  body: chatPaymentRequestSchema,
  reply: dynamicBlockSchema,
  summary: 'The chat flow asks for a payment link (Dynamic Block v2 reply). Requires the header X-Webhook-Secret; the amount must be the listed price (409 names it), an unknown product is 404, the same chat order with another body is 409; rate-limited per address and subscriber (429)',
  example: { body: exampleChatRequest, reply: exampleChatReply },
});

export const testChatPaymentWebhook = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/test-webhook', access: 'admin', category,
  body: z.unknown(),
  reply: z.object({ success: z.boolean(), error: z.string().nullable(), data: z.object({ statusCode: z.number().int(), response: z.unknown() }) }),
  summary: 'Send a payload through the chat webhook as the chat would, and show what it answered',
  example: { body: exampleChatRequest, reply: { success: true, error: null, data: { statusCode: 200, response: exampleChatReply } } },
});

export const getQpaySettings = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/settings', access: 'admin', category,
  reply: qpaySettingsViewSchema,
  summary: 'The QPay settings (the client secret masked)',
  example: {
    reply: {
      qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '••••3456', qpayClientSecretSet: true, qpayClientSecretUnreadable: null, qpayInvoiceCode: 'TEST_INVOICE', qpayCallbackUrl: '', qpayEnvironment: 'sandbox', enabled: false,
      webhookPath: '/api/qpay/webhook', callbackPath: '/api/qpay/callback', webhookUrl: 'https://shop.example.mn/api/qpay/webhook', callbackUrl: 'https://shop.example.mn/api/qpay/callback', updatedAt: null,
      webhookSecret: '••••Qx7w', webhookSecretUnreadable: null, webhookSecretRotatedAt: null,
    },
  },
});

export const saveQpaySettings = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/settings', access: 'admin', category,
  body: z.object({
    qpayClientId: z.string().trim().max(100),
    /** Blank or the masked value keeps the stored secret. */
    qpayClientSecret: z.string().trim().max(200).optional(),
    qpayInvoiceCode: z.string().trim().max(45, 'The invoice code has at most 45 characters'),
    qpayCallbackUrl: z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), z.string().trim().url('The callback URL must be a full http(s) address')]).optional()),
    qpayEnvironment: qpayEnvironmentSchema,
    enabled: z.boolean(),
  }).strict(),
  reply: z.object({ success: z.boolean(), settings: qpaySettingsViewSchema }),
  summary: 'Save the QPay settings (the secret encrypted); enabling needs a client id, secret and invoice code',
  example: {
    body: { qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '123456', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true },
    reply: {
      success: true,
      settings: {
        qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '••••3456', qpayClientSecretSet: true, qpayClientSecretUnreadable: null, qpayInvoiceCode: 'TEST_INVOICE', qpayCallbackUrl: '', qpayEnvironment: 'sandbox', enabled: true,
        webhookPath: '/api/qpay/webhook', callbackPath: '/api/qpay/callback', webhookUrl: 'https://shop.example.mn/api/qpay/webhook', callbackUrl: 'https://shop.example.mn/api/qpay/callback', updatedAt: '2026-11-23T08:00:00.000Z',
        webhookSecret: '••••Qx7w', webhookSecretUnreadable: null, webhookSecretRotatedAt: null,
      },
    },
  },
});

export const qpayLogs = defineRoute({
  owner: 'payments', method: 'GET', path: '/api/qpay/logs', access: 'admin', category,
  query: limitQuery(100),
  reply: z.object({ data: z.array(webhookLogSchema) }),
  summary: 'Callbacks, webhooks, checks and approvals, newest first',
  example: { query: { limit: 100 }, reply: { data: [{ id: 1, type: 'callback', reference: 'INV-7K3Q9X2M4P', status: 'accepted', requestData: { qpay_payment_id: '459812345678901' }, responseData: { status: 'SUCCESS' }, responseTime: 84, errorMessage: null, createdAt: '2026-11-23T08:01:12.000Z' }] } },
});

export const approveInvoice = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/admin/invoices/:id/approve', access: 'admin', category,
  params: adminInvoiceParams,
  reply: z.object({ success: z.boolean(), invoice: invoiceRecordSchema }),
  summary: 'Mark a pending invoice paid by hand (recorded with who approved it): the key is assigned and the customer told',
  example: { params: { id: 'INV-7K3Q9X2M4P' }, reply: { success: true, invoice: { ...exampleRecord, status: 'paid', paidAt: '2026-11-23T08:05:00.000Z', approvedBy: 'admin@example.mn' } } },
});

export const deleteInvoice = defineRoute({
  owner: 'payments', method: 'DELETE', path: '/api/admin/invoices/:id', access: 'admin', category,
  params: adminInvoiceParams,
  reply: successReply,
  summary: 'Cancel a pending invoice at QPay and remove it from the lists (kept for the audit trail); a paid invoice cannot be deleted',
  example: { params: { id: 'INV-7K3Q9X2M4P' }, reply: { success: true } },
});

const exampleSettings = getQpaySettings.example.reply;

export const revealWebhookSecret = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/webhook-secret/reveal', access: 'admin', category,
  reply: z.object({ secret: z.string() }),
  summary: "The whole chat webhook secret, for the chat flow's X-Webhook-Secret header (POST so no cache or log keeps it)",
  example: { reply: { secret: 'k3Vq9Zs0f2H7mB1xT8rW4yN6cJ5pL0aQx7w' } },
});

export const rotateWebhookSecret = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/qpay/webhook-secret/rotate', access: 'admin', category,
  reply: z.object({ success: z.boolean(), settings: qpaySettingsViewSchema }),
  summary: 'Replace the chat webhook secret with a fresh random one: the old one stops working at once, so the chat flow needs the new one',
  example: { reply: { success: true, settings: { ...exampleSettings, webhookSecret: '••••9dKe', webhookSecretRotatedAt: '2026-11-23T09:00:00.000Z' } } },
});

export const refundPaymentInvoice = defineRoute({
  owner: 'payments', method: 'POST', path: '/internal/payments/invoices/:invoiceId/refund', access: 'internal', callers: ['streaming-keys'], category,
  params: invoiceParams,
  body: z.object({ refundedBy: z.string().trim().min(1).max(255), note: z.string().trim().max(255).optional() }).strict(),
  reply: z.object({ invoice: invoiceRecordSchema, message: z.string() }),
  summary: "Give a paid invoice's money back: QPay's refund call for each payment, or, where QPay cannot (a bank transfer), recorded as returned by hand; once",
  example: {
    params: { invoiceId: 'INV-7K3Q9X2M4P' },
    body: { refundedBy: 'admin@example.mn' },
    reply: {
      invoice: { ...exampleRecord, status: 'paid', paidAt: '2026-11-23T08:01:12.000Z', paymentId: '459812345678901', refund: { at: '2026-11-23T09:00:00.000Z', by: 'admin@example.mn', method: 'by_hand' } },
      message: 'QPay cannot return a bank transfer (PAYMENT_SETTLED): recorded as returned by hand by admin@example.mn',
    },
  },
});

export const paymentsRoutes = [
  createPaymentInvoice, getPaymentInvoice, createInvoice, invoiceView, invoiceStatus, invoicesOfUser, recentInvoices, pendingInvoices, recheckInvoice,
  qpayCallbackGet, qpayCallbackPost, qpayCallbackLegacy, chatPaymentWebhook, testChatPaymentWebhook, getQpaySettings, saveQpaySettings, qpayLogs,
  approveInvoice, deleteInvoice, revealWebhookSecret, rotateWebhookSecret, refundPaymentInvoice,
];
