import { randomBytes, randomUUID } from 'node:crypto';
import { bankDeepLinks } from './banks';
import { fieldError, qpayError } from './errors';
import { emvQrText, qrPngBase64 } from './qr';
import type { Invoice, InvoiceLine, QpayEnv, QpayState } from './state';

/** QPay shows some amounts as strings with two decimals ("10.00"). */
export const money = (amount: number) => amount.toFixed(2);

type Body = Record<string, unknown>;

function checkString(body: Body, field: string, max: number, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw fieldError(field, 'REQUIRED', 'Required!');
    return undefined;
  }
  if (typeof value !== 'string') throw fieldError(field, 'STRING', 'Must be string!');
  if (value.length > max) throw fieldError(field, 'MAX_LENGTH', `String max length [${max}]!`);
  return value;
}

const toNumber = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);

function parseLines(body: Body): InvoiceLine[] {
  if (body.lines === undefined) return [];
  if (!Array.isArray(body.lines)) throw fieldError('lines', 'ARRAY', 'Must be array!');
  return body.lines.map((raw: Body) => {
    const line_description = checkString(raw ?? {}, 'line_description', 255, true)!;
    const line_quantity = toNumber(raw.line_quantity);
    const line_unit_price = toNumber(raw.line_unit_price);
    if (!(line_quantity > 0) || !(line_unit_price >= 0)) throw qpayError(400, 'INVALID_AMOUNT', 'Line quantity and unit price must be numbers');
    return { line_description, line_quantity, line_unit_price, sender_product_code: raw.sender_product_code as string | undefined, tax_product_code: raw.tax_product_code as string | undefined, note: raw.note as string | undefined };
  });
}

/** Validates a simple invoice like QPay: required fields and lengths, a known invoice_code, a positive amount. */
export async function createInvoice(state: QpayState, env: QpayEnv, clientId: string, input: unknown) {
  const body = (input && typeof input === 'object' ? input : {}) as Body;
  const invoiceCode = checkString(body, 'invoice_code', 45, true)!;
  const senderInvoiceNo = checkString(body, 'sender_invoice_no', 45, true)!;
  const receiverCode = checkString(body, 'invoice_receiver_code', 45, true)!;
  const description = checkString(body, 'invoice_description', 255, true)!;
  const callbackUrl = checkString(body, 'callback_url', 255, true)!;
  const senderBranchCode = checkString(body, 'sender_branch_code', 45, false) ?? null;
  const note = checkString(body, 'note', 1000, false) ?? null;
  if (!state.options.invoiceCodes.includes(invoiceCode)) throw qpayError(400, 'INVOICE_CODE_INVALID', 'Invoice code is invalid');
  const lines = parseLines(body);
  if (body.amount === undefined && lines.length === 0) throw qpayError(400, 'INVOICE_LINE_REQUIRED', 'Invoice amount or lines required');
  const amount = body.amount === undefined ? lines.reduce((sum, l) => sum + l.line_quantity * l.line_unit_price, 0) : toNumber(body.amount);
  if (!Number.isFinite(amount) || amount <= 0) throw qpayError(400, 'INVALID_AMOUNT', 'Amount must be a positive number');

  const invoiceId = randomUUID();
  const qrText = emvQrText({ invoiceId, amount, merchantName: state.options.merchantName, merchantCity: state.options.merchantCity, reference: senderInvoiceNo });
  const invoice: Invoice = {
    invoiceId,
    env,
    clientId,
    invoiceCode,
    senderInvoiceNo,
    senderBranchCode,
    receiverCode,
    description,
    amount,
    callbackUrl,
    allowPartial: body.allow_partial === true,
    minimumAmount: body.minimum_amount === undefined ? null : toNumber(body.minimum_amount),
    allowExceed: body.allow_exceed === true,
    maximumAmount: body.maximum_amount === undefined ? null : toNumber(body.maximum_amount),
    note,
    // QPay makes one line from the description when none are sent.
    lines: lines.length > 0 ? lines : [{ line_description: description, line_quantity: 1, line_unit_price: amount }],
    qrText,
    shortCode: randomBytes(6).toString('base64url'),
    status: 'OPEN',
    createdAt: new Date().toISOString(),
    payments: [],
  };
  state.invoices.set(invoiceId, invoice);
  return {
    invoice_id: invoiceId,
    qr_text: qrText,
    qr_image: await qrPngBase64(qrText),
    qPay_shortUrl: `https://s.qpay.mn/${invoice.shortCode}`,
    urls: bankDeepLinks(qrText),
  };
}

/** An invoice of this environment, or INVOICE_NOTFOUND. */
export function findInvoice(state: QpayState, env: QpayEnv, invoiceId: string): Invoice {
  const invoice = state.invoices.get(invoiceId);
  if (!invoice || invoice.env !== env) throw qpayError(state.options.notFoundStatus, 'INVOICE_NOTFOUND', 'Invoice not found');
  return invoice;
}

/** GET /invoice/{id}: note the mixed types — total/minimum/maximum are strings, gross/tax/discount numbers. */
export function invoiceView(state: QpayState, invoice: Invoice) {
  const nextDay = new Date(Date.parse(invoice.createdAt) + 86_400_000).toISOString();
  return {
    invoice_id: invoice.invoiceId,
    invoice_status: state.statusOf(invoice),
    sender_invoice_no: invoice.senderInvoiceNo,
    sender_branch_code: invoice.senderBranchCode,
    sender_branch_data: null,
    sender_staff_code: null,
    sender_staff_data: null,
    sender_terminal_code: null,
    sender_terminal_data: null,
    invoice_description: invoice.description,
    invoice_due_date: null,
    enable_expiry: false,
    expiry_date: nextDay,
    allow_partial: invoice.allowPartial,
    minimum_amount: invoice.minimumAmount === null ? null : money(invoice.minimumAmount),
    allow_exceed: invoice.allowExceed,
    maximum_amount: invoice.maximumAmount === null ? null : money(invoice.maximumAmount),
    total_amount: money(invoice.amount),
    gross_amount: invoice.amount,
    tax_amount: 0,
    surcharge_amount: 0,
    discount_amount: 0,
    callback_url: invoice.callbackUrl,
    note: invoice.note,
    lines: invoice.lines.map((line) => ({
      tax_product_code: line.tax_product_code ?? null,
      line_description: line.line_description,
      line_quantity: money(line.line_quantity),
      line_unit_price: money(line.line_unit_price),
      note: line.note ?? null,
      discounts: [],
      surcharges: [],
      taxes: [],
    })),
    transactions: [],
    inputs: [],
  };
}

/** DELETE /invoice/{id}: `{}`; a paid one answers INVOICE_PAID, a cancelled one INVOICE_ALREADY_CANCELED. */
export function cancelInvoice(state: QpayState, invoice: Invoice): Record<string, never> {
  if (invoice.status === 'CANCELED') throw qpayError(state.options.cancelErrorStatus, 'INVOICE_ALREADY_CANCELED', 'Invoice already canceled');
  if (invoice.payments.length > 0) throw qpayError(state.options.cancelErrorStatus, 'INVOICE_PAID', 'Invoice already paid');
  invoice.status = 'CANCELED';
  return {};
}
