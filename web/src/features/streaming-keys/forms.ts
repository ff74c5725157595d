/**
 * The rules of the page's forms (document 3 §4/§5), pure so they are tested without a browser. They
 * answer text keys; the components show them in the chosen language.
 */
import { businessDate } from '@bo/proto/business-time';
import type { ServiceCode, StreamingKeyView } from './api';

/**
 * An expiry chosen as a number of months or as a date, never both: choosing one clears the other
 * (document 3 §4 "Extend dialog"; the create dialog works the same way).
 */
export interface ExpiryChoice {
  months: string;
  date: string;
}
export const noExpiry: ExpiryChoice = { months: '', date: '' };
export const chooseMonths = (months: string): ExpiryChoice => ({ months, date: '' });
export const chooseDate = (date: string): ExpiryChoice => ({ months: '', date });

/** The request's part: `months` or `expiresAt`; null when neither is chosen ('Please select duration or custom date'). */
export function expiryOf(choice: ExpiryChoice): { months: number } | { expiresAt: string } | null {
  if (choice.months) return { months: Number(choice.months) };
  if (choice.date) return { expiresAt: choice.date };
  return null;
}

/** Today as a date input writes it (the browser's own day). */
export function todayInput(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The earliest custom expiry date: today, in the browser and in Ulaanbaatar, whichever is later (the
 * server refuses a date before Ulaanbaatar's day, which a browser west of it reaches later).
 */
export const earliestExpiryDate = (now = new Date()): string => [todayInput(now), businessDate(now)].sort()[1]!;

export type ExtendProblem = 'streamingKeys.enterKey' | 'streamingKeys.keyNotFound' | 'streamingKeys.selectExpiry';

/**
 * The admin tool's extend by key text (document 3 §5): 'Please enter a key', 'Key not found' when the
 * text matches no loaded key (case and spaces forgiven), else the months or date must be chosen.
 */
export function extensionByKeyText(
  text: string,
  keys: readonly Pick<StreamingKeyView, 'id' | 'key'>[],
  choice: ExpiryChoice,
): { problem: ExtendProblem } | { keyId: number; months?: number; expiresAt?: string } {
  const wanted = text.replace(/\s+/g, '').toUpperCase();
  if (!wanted) return { problem: 'streamingKeys.enterKey' };
  const key = keys.find((candidate) => candidate.key.toUpperCase() === wanted);
  if (!key) return { problem: 'streamingKeys.keyNotFound' };
  const expiry = expiryOf(choice);
  if (!expiry) return { problem: 'streamingKeys.selectExpiry' };
  return { keyId: key.id, ...expiry };
}

export interface NewKeyForm {
  service: ServiceCode | '';
  /** An existing account e-mail with free slots, or a new one typed in. */
  email: string;
  expiry: ExpiryChoice;
  profiles: string;
  password: string;
}

/** Document 3 §5: service, e-mail and expiry are required, otherwise 'Please fill in all required fields'. */
export function newKeysRequest(form: NewKeyForm): { problem: 'streamingKeys.fillRequired' } | { service: ServiceCode; email: string; months?: number; expiresAt?: string; profiles: number; password?: string } {
  const email = form.email.trim();
  const expiry = expiryOf(form.expiry);
  if (!form.service || !email || !expiry) return { problem: 'streamingKeys.fillRequired' };
  const password = form.password.trim();
  return { service: form.service, email, ...expiry, profiles: Number(form.profiles) || 1, ...(password ? { password } : {}) };
}

/** Document 3 §5: a blank customer id is sent as null (the key leaves its chat subscriber). */
export const customerIdValue = (text: string): string | null => text.trim() || null;

/** Document 3 §5: the inline edit's price is parsed as an integer; null (save disabled) when empty or not a number. */
export function inlinePrice(text: string): number | null {
  if (!text.trim()) return null;
  const price = Number.parseInt(text, 10);
  return Number.isNaN(price) ? null : price;
}

export interface PriceForm {
  service: ServiceCode | '';
  serviceName: string;
  duration: string;
  price: string;
}

export type PriceProblem =
  | 'streamingKeys.serviceRequired'
  | 'streamingKeys.serviceNameRequired'
  | 'streamingKeys.durationMin'
  | 'streamingKeys.durationMax'
  | 'streamingKeys.priceMin';

/** Document 3 §5's pricing form: each field's message, or the request when all pass. */
export function priceRequest(form: PriceForm): { problems: Partial<Record<keyof PriceForm, PriceProblem>> } | { service: ServiceCode; serviceName: string; duration: number; price: number } {
  const problems: Partial<Record<keyof PriceForm, PriceProblem>> = {};
  const duration = Number.parseInt(form.duration, 10);
  const price = Number.parseInt(form.price, 10);
  if (!form.service) problems.service = 'streamingKeys.serviceRequired';
  if (!form.serviceName.trim()) problems.serviceName = 'streamingKeys.serviceNameRequired';
  if (Number.isNaN(duration) || duration < 1) problems.duration = 'streamingKeys.durationMin';
  else if (duration > 12) problems.duration = 'streamingKeys.durationMax';
  if (Number.isNaN(price) || price < 0) problems.price = 'streamingKeys.priceMin';
  if (Object.keys(problems).length > 0 || !form.service) return { problems };
  return { service: form.service, serviceName: form.serviceName.trim(), duration, price };
}
