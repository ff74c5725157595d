/** Pure helpers of the key list and the expiry report (document 3 §2/§9). */
import { businessDate } from '@bo/proto/business-time';
import type { ExpiryReportKey, ServiceCode, StreamingKeyView } from './api';
import { serviceCodeList } from './api';
import { todayInput } from './forms';

export interface KeyGroup {
  email: string;
  services: { service: ServiceCode; keys: StreamingKeyView[] }[];
}

/** Keys grouped by account e-mail, then by service (in the services' order), each by profile. */
export function groupKeys(keys: readonly StreamingKeyView[]): KeyGroup[] {
  const byEmail = new Map<string, Map<ServiceCode, StreamingKeyView[]>>();
  for (const key of keys) {
    const services = byEmail.get(key.email) ?? new Map<ServiceCode, StreamingKeyView[]>();
    byEmail.set(key.email, services);
    services.set(key.service, [...(services.get(key.service) ?? []), key]);
  }
  return [...byEmail.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([email, services]) => ({
      email,
      services: serviceCodeList
        .filter((service) => services.has(service))
        .map((service) => ({ service, keys: [...services.get(service)!].sort((a, b) => a.profileNumber - b.profileNumber) })),
    }));
}

/** A key's details as text, for the card's copy info (what the customer needs to sign in); the expiry day is Ulaanbaatar's, as the key's QR code says. */
export const keyInfo = (key: StreamingKeyView) =>
  [`Service: ${key.serviceName}`, `Email: ${key.email}`, `Profile: ${key.profileNumber}`, `Key: ${key.key}`, `Expires: ${businessDate(new Date(key.expiresAt))}`].join('\n');

/** Document 3 §9: the report's CSV columns. */
export const CSV_COLUMNS = ['Service', 'Email', 'Key', 'Expires', 'Status', 'Attempts'] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
const csvField = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The expiry report as CSV; an empty notification status is 'pending' (document 3 §4). */
export function expiryReportCsv(keys: readonly ExpiryReportKey[]): string {
  const rows = keys.map((key) => [key.serviceName, key.email, key.key, key.expiresAt, key.notificationStatus ?? 'pending', key.notificationAttempts]);
  return [CSV_COLUMNS, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The file name carries the day of the export: expiry-report-2026-11-23.csv. */
export const expiryReportFileName = (now = new Date()) => `expiry-report-${todayInput(now)}.csv`;
