import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { formatTugrik, serviceCodes, streamingServiceOf, type ServiceCode } from '@bo/proto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Our public invoice id: INV- and ten random characters (36^10 ≈ 3.6e15: not guessable from another). */
export function newInvoiceId(): string {
  return `INV-${Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;
}

/** The per-invoice secret QPay sends back in the callback URL's query. */
export const newCallbackToken = () => randomBytes(24).toString('hex');

/** A fresh chat webhook secret: 32 random bytes, 43 URL-safe characters. */
export const newWebhookSecret = () => randomBytes(32).toString('base64url');

/** Compares in constant time, so the answer's timing tells nothing about how much of a guess was right. */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  // Hashing first makes both sides the same length: timingSafeEqual then never returns early on a length.
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** A request's fingerprint: SHA-256 of its JSON with keys sorted, so the same body always gives the same one. */
export function fingerprintOf(body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]));
    }
    return value;
  };
  return createHash('sha256').update(JSON.stringify(canonical(body))).digest('hex');
}

/** `<base>/<invoiceId>?token=…`: the base is the settings' override or <PUBLIC_URL>/api/qpay/callback. */
export function callbackUrlFor(base: string, invoiceId: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/${invoiceId}?token=${token}`;
}

const STREAMING_CODE = new RegExp(`^(${serviceCodes.join('|')})-(\\d{1,2})M$`, 'i');

/** What a chat payment request's invoice_code asks for: a streaming code like NFX-1M (1–12 months), else a product by name. */
export type ChatProduct = { kind: 'streaming'; serviceCode: ServiceCode; months: number; name: string } | { kind: 'custom'; productName: string };

export function chatProduct(invoiceCode: string): ChatProduct {
  const match = STREAMING_CODE.exec(invoiceCode.trim());
  const months = match ? Number(match[2]) : 0;
  if (match && months >= 1 && months <= 12) {
    const serviceCode = match[1].toUpperCase() as ServiceCode;
    return { kind: 'streaming', serviceCode, months, name: `${streamingServiceOf(serviceCode).name} ${months} сар` };
  }
  return { kind: 'custom', productName: invoiceCode.trim() };
}

/** The 409 a chat request gets when its amount is not the listed price: it names the price. */
export const priceMismatch = (product: string, price: number, asked: number) => `${product} costs ${formatTugrik(price)}, not ${formatTugrik(asked)}`;

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
