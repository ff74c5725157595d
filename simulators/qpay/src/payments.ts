import { randomInt } from 'node:crypto';
import { payerBanks } from './banks';
import { fieldError, qpayError } from './errors';
import { findInvoice, money } from './invoices';
import { paymentIdNumber, type Invoice, type Payment, type QpayEnv, type QpayState } from './state';

const objectTypes = ['INVOICE', 'QR', 'ITEM', 'MERCHANT'];

/** One row of /payment/check: amounts are strings; a bank transfer (P2P) lists its bank transaction, a card payment its card one. */
export function paymentRow(payment: Payment) {
  const transaction = {
    id: `${payment.paymentId}01`,
    status: 'SUCCESS',
    amount: money(payment.amount),
    currency: 'MNT',
  };
  return {
    payment_id: payment.paymentId,
    payment_status: payment.refundedAt ? 'REFUNDED' : 'PAID',
    payment_amount: money(payment.amount),
    trx_fee: '0.00',
    payment_currency: 'MNT',
    payment_wallet: '0',
    payment_type: payment.type,
    payment_date: payment.paidAt,
    next_payment_date: null,
    next_payment_datetime: null,
    card_transactions: payment.type === 'CARD' ? [{ ...transaction, card_type: 'VISA', is_cross_border: false }] : [],
    p2p_transactions: payment.type === 'CARD' ? [] : [
      {
        id: `${payment.paymentId}01`,
        transaction_bank_code: payment.bankCode,
        account_bank_code: payment.bankCode,
        account_bank_name: payment.bankName,
        account_number: payment.accountNumber,
        status: 'SUCCESS',
        amount: money(payment.amount),
        currency: 'MNT',
        settlement_status: 'SETTLED',
      },
    ],
  };
}

function pageOf(offset: unknown): { page: number; limit: number } {
  const { page_number = 1, page_limit = 100 } = (offset && typeof offset === 'object' ? offset : {}) as Record<string, unknown>;
  for (const [field, value] of [['page_number', page_number], ['page_limit', page_limit]] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw fieldError(field, 'NUMBER', 'Must be number!');
    if (value < 1) throw fieldError(field, 'MIN_NUMBER', 'Number min value [1]!');
  }
  return { page: page_number as number, limit: page_limit as number };
}

/** POST /payment/check: unpaid answers `{count:0, rows:[]}` with NO paid_amount; paid adds the sum of rows. */
export function checkPayments(state: QpayState, env: QpayEnv, clientId: string, input: unknown) {
  const body = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  if (typeof body.object_type !== 'string' || !objectTypes.includes(body.object_type)) {
    throw qpayError(400, 'INVALID_OBJECT_TYPE', 'Invalid object type');
  }
  if (typeof body.object_id !== 'string' || body.object_id === '') throw fieldError('object_id', 'REQUIRED', 'Required!');
  const { page, limit } = pageOf(body.offset);
  let payments: Payment[] = [];
  if (body.object_type === 'INVOICE') payments = findInvoice(state, env, body.object_id).payments;
  if (body.object_type === 'MERCHANT') {
    payments = [...state.invoices.values()].filter((i) => i.env === env && i.clientId === clientId).flatMap((i) => i.payments);
  }
  // QR and ITEM objects are not modelled: they have no payments here.
  const rows = payments.slice((page - 1) * limit, page * limit).map(paymentRow);
  if (payments.length === 0) return { count: 0, rows: [] };
  return { count: payments.length, paid_amount: payments.filter((p) => !p.refundedAt).reduce((sum, p) => sum + p.amount, 0), rows };
}

/** GET /payment/{id}: one payment pointing back at its invoice. */
export function paymentView(state: QpayState, env: QpayEnv, paymentId: string) {
  const payment = state.findPayment(paymentId);
  const invoice = payment && state.invoices.get(payment.invoiceId);
  if (!payment || !invoice || invoice.env !== env) throw qpayError(state.options.notFoundStatus, 'PAYMENT_NOTFOUND', 'Payment not found');
  return { ...paymentRow(payment), object_type: 'INVOICE', object_id: invoice.invoiceId };
}

/**
 * DELETE /payment/refund/{id} (external-apis.md §1): a card payment is refunded; a bank transfer
 * is settled at once and answers PAYMENT_SETTLED (as reported for P2P); a second refund answers
 * PAYMENT_ALREADY_CANCELED.
 */
export function refundPayment(state: QpayState, env: QpayEnv, paymentId: string): Record<string, never> {
  const payment = state.findPayment(paymentId);
  const invoice = payment && state.invoices.get(payment.invoiceId);
  if (!payment || !invoice || invoice.env !== env) throw qpayError(state.options.notFoundStatus, 'PAYMENT_NOTFOUND', 'Payment not found');
  if (payment.refundedAt) throw qpayError(400, 'PAYMENT_ALREADY_CANCELED', 'Payment already canceled');
  if (payment.type === 'P2P') throw qpayError(400, 'PAYMENT_SETTLED', 'Payment settled');
  payment.refundedAt = new Date().toISOString();
  return {};
}

/** A payer pays (part of) an open invoice; the invoice settles once payments reach its amount. */
export function recordPayment(state: QpayState, invoice: Invoice, amount?: number, type: Payment['type'] = 'P2P'): Payment {
  if (invoice.status !== 'OPEN') throw qpayError(409, 'INVOICE_NOT_OPEN', `Invoice is ${state.statusOf(invoice)}`);
  const due = invoice.amount - state.paidAmount(invoice);
  const paid = amount ?? due;
  if (!(paid > 0)) throw qpayError(400, 'INVALID_AMOUNT', 'Amount must be positive');
  const bank = payerBanks[randomInt(payerBanks.length)];
  const payment: Payment = {
    paymentId: paymentIdNumber(),
    invoiceId: invoice.invoiceId,
    amount: paid,
    paidAt: new Date().toISOString(),
    type,
    bankCode: bank.code,
    bankName: bank.name,
    accountNumber: `${randomInt(1000, 9999)}****${randomInt(1000, 9999)}`,
  };
  invoice.payments.push(payment);
  if (state.paidAmount(invoice) >= invoice.amount) invoice.status = 'SETTLED';
  return payment;
}
