import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { serviceCodes, streamingServiceOf, type InvoiceOrder, type ServiceCode } from '@bo/proto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Our public invoice id: INV- and ten random characters (36^10 ≈ 3.6e15: not guessable from another). */
export function newInvoiceId(): string {
  return `INV-${Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;
}

/** The per-invoice secret QPay sends back in the callback URL's query. */
export const newCallbackToken = () => randomBytes(24).toString('hex');

export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `<base>/<invoiceId>?token=…`: the base is the settings' override or <PUBLIC_URL>/api/qpay/callback. */
export function callbackUrlFor(base: string, invoiceId: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/${invoiceId}?token=${token}`;
}

const STREAMING_CODE = new RegExp(`^(${serviceCodes.join('|')})-(\\d{1,2})M$`, 'i');

/** What a chat payment request's invoice_code asks for: a streaming code like NFX-1M (1–12 months), else a product by name. */
export function chatOrder(invoiceCode: string, email: string | null): { order: InvoiceOrder; description: string } {
  const match = STREAMING_CODE.exec(invoiceCode.trim());
  const months = match ? Number(match[2]) : 0;
  if (match && months >= 1 && months <= 12) {
    const serviceCode = match[1].toUpperCase() as ServiceCode;
    return { order: { kind: 'streaming', serviceCode, months, email, streamingInvoiceId: null }, description: `${streamingServiceOf(serviceCode).name} ${months} сар` };
  }
  return { order: { kind: 'custom', productName: invoiceCode.trim() }, description: invoiceCode.trim() };
}

export const formatTugrik = (amount: number) => `${amount.toLocaleString('en-US')}₮`;

/**
 * What QPay's payment check means for an invoice of `amount` (ADR 14): only the exact amount pays
 * it; a smaller or larger sum is for an admin to judge, nothing is assigned on it.
 */
export function judgePayment(amount: number, paid: number): { outcome: 'paid' | 'unpaid' | 'flag'; message: string } {
  if (paid === 0) return { outcome: 'unpaid', message: 'Not paid yet' };
  if (paid === amount) return { outcome: 'paid', message: `Paid ${formatTugrik(paid)}` };
  if (paid < amount) return { outcome: 'flag', message: `Paid ${formatTugrik(paid)} of ${formatTugrik(amount)}: a partial payment. Check with the bank, then approve or delete.` };
  return { outcome: 'flag', message: `Paid ${formatTugrik(paid)}, more than the invoice's ${formatTugrik(amount)}. Check with the bank, then approve or refund.` };
}
