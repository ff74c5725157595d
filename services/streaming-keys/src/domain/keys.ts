import { randomInt } from 'node:crypto';
import { EXPIRING_SOON_DAYS, KEY_PREFIX, addBusinessMonths, businessDate, formatTugrik, startOfBusinessDay, streamingServiceOf, type ServiceCode } from '@bo/proto';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const KEY_RANDOM_LENGTH = 10;
const DAY_MS = 86_400_000;

/** `SK-` + ten crypto-random uppercase letters and digits + `-` + the service code (proto's keyPattern). */
export function newKeyText(service: ServiceCode): string {
  let random = '';
  for (let i = 0; i < KEY_RANDOM_LENGTH; i++) random += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return `${KEY_PREFIX}-${random}-${service}`;
}

/** Document 3 §4: Expired if the expiry is past; otherwise Active if isActive is 1, else Used. */
export function displayStatus(key: { expiresAt: Date; isActive: number }, now = new Date()): 'Active' | 'Expired' | 'Used' {
  if (key.expiresAt.getTime() < now.getTime()) return 'Expired';
  return key.isActive === 1 ? 'Active' : 'Used';
}

/**
 * A key is held once a sale took it (assignedAt) or an admin gave it to a chat subscriber
 * (customerId); only a key that is neither, and active, is free for the next sale.
 */
export const isHeld = (key: { assignedAt: Date | null; customerId: string | null }) => key.assignedAt !== null || key.customerId !== null;

/**
 * `months` calendar months after `from` in the business's zone (Ulaanbaatar), at the same time of
 * day; a day the month lacks becomes its last. A key bought on 31 January at 07:00 in Ulaanbaatar
 * (30 January 23:00 UTC) runs to 28 (29) February 07:00 there, not to 1 March as UTC months would say.
 */
export const addMonths = (from: Date, months: number): Date => addBusinessMonths(from, months);

/** A renewal or an extension by months counts from the later of now and the current expiry, so no paid time is lost. */
export const extendedExpiry = (current: Date, months: number, now = new Date()) => addMonths(current.getTime() > now.getTime() ? current : now, months);

export const daysFromNow = (days: number, now = new Date()) => new Date(now.getTime() + days * DAY_MS);
export const expiringSoonEnd = (now = new Date()) => daysFromNow(EXPIRING_SOON_DAYS, now);

/** The start of today in Ulaanbaatar (the business's day): a chosen expiry date may not be earlier. */
export const startOfToday = (now = new Date()): Date => startOfBusinessDay(now);

/** The profile numbers 1..max of a service that no key of the account holds. */
export function freeProfiles(service: ServiceCode, taken: number[]): number[] {
  const used = new Set(taken);
  const { maxProfiles } = streamingServiceOf(service);
  return Array.from({ length: maxProfiles }, (_, i) => i + 1).filter((profile) => !used.has(profile));
}

/** What a key message and the QR image say about a key. */
export function keyInfoText(key: { service: ServiceCode; email: string; profileNumber: number; key: string; expiresAt: Date }): string {
  return [
    `Service: ${streamingServiceOf(key.service).name}`,
    `Email: ${key.email}`,
    `Profile: ${key.profileNumber}`,
    `Key: ${key.key}`,
    `Expires: ${businessDate(key.expiresAt)}`,
  ].join('\n');
}

/** The reason a paid order waits for a key, shown on the invoice until an admin presses Assign key. */
export const noFreeKeyReason = (service: ServiceCode) => `No free ${streamingServiceOf(service).name} slot: add keys, then Assign key`;

/**
 * The reason a paid order gets no key by itself (issue 18 §1): it was paid less than its price, or
 * there is no price to hold it to. An admin approves (assign anyway) or refunds.
 */
export function belowPriceReason(order: { service: ServiceCode; months: number }, paid: number, price: number | null): string {
  const what = `${streamingServiceOf(order.service).name} ${order.months} сар`;
  return price === null
    ? `Paid ${formatTugrik(paid)} for ${what}, which has no listed price to check it against: approve to assign a key anyway, or refund`
    : `Paid ${formatTugrik(paid)}, below the price of ${what} (${formatTugrik(price)}): approve to assign a key anyway, or refund`;
}

/** The expiry form of create and extend: months or a date, never both (document 3 §4 "Extend dialog"). */
export interface ExpiryChoice {
  months?: number;
  expiresAt?: string;
}
export const EXPIRY_CHOICE_MESSAGE = 'Please select duration or custom date';

/** Both or neither chosen: the form's message. */
export const expiryChoiceError = (choice: ExpiryChoice): string | null => ((choice.months === undefined) === (choice.expiresAt === undefined) ? EXPIRY_CHOICE_MESSAGE : null);

/** A new key's expiry: `months` from now, or the chosen date if it is not before today. */
export function newKeyExpiry(choice: ExpiryChoice, now = new Date()): { expiresAt: Date } | { error: string } {
  const invalid = expiryChoiceError(choice);
  if (invalid) return { error: invalid };
  if (choice.months !== undefined) return { expiresAt: addMonths(now, choice.months) };
  const date = new Date(choice.expiresAt!);
  if (date.getTime() < startOfToday(now).getTime()) return { error: 'Expiry date cannot be in the past' };
  return { expiresAt: date };
}

/** An extended expiry: `months` after the later of now and the current expiry, or a chosen date later than the current expiry. */
export function extendedKeyExpiry(current: Date, choice: ExpiryChoice, now = new Date()): { expiresAt: Date; months: number | null } | { error: string } {
  const invalid = expiryChoiceError(choice);
  if (invalid) return { error: invalid };
  if (choice.months !== undefined) return { expiresAt: extendedExpiry(current, choice.months, now), months: choice.months };
  const date = new Date(choice.expiresAt!);
  if (date.getTime() <= current.getTime()) return { error: `The new expiry must be later than the current one (${businessDate(current)})` };
  return { expiresAt: date, months: null };
}
