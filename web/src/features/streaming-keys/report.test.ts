import { describe, expect, it } from 'vitest';
import type { StreamingKeyView } from './api';
import { CSV_COLUMNS, expiryReportCsv, expiryReportFileName, groupKeys, keyInfo } from './report';

const key = (id: number, email: string, service: StreamingKeyView['service'], profileNumber: number): StreamingKeyView => ({
  id, email, key: `SK-${String(id).padStart(10, '0')}-${service}`, service, serviceName: service, profileNumber, expiresAt: '2026-12-23T08:00:00.000Z',
  isActive: 1, status: 'Active', customerId: null, held: false, assignedAt: null, buyerEmail: null, streamingInvoiceId: null, lastNotificationSent: null,
  notificationStatus: null, notificationError: null, notificationAttempts: 0, isOptedOut: false, createdAt: '2026-11-20T08:00:00.000Z',
});

describe('groupKeys', () => {
  it('groups by e-mail (alphabetically), then by service in the services’ order, each by profile', () => {
    const groups = groupKeys([key(1, 'b@x.mn', 'MAX', 2), key(2, 'a@x.mn', 'DPS', 1), key(3, 'b@x.mn', 'NFX', 3), key(4, 'b@x.mn', 'NFX', 1), key(5, 'b@x.mn', 'MAX', 1)]);
    expect(groups.map((group) => [group.email, group.services.map(({ service, keys }) => [service, keys.map((k) => k.profileNumber)])])).toEqual([
      ['a@x.mn', [['DPS', [1]]]],
      ['b@x.mn', [['NFX', [1, 3]], ['MAX', [1, 2]]]],
    ]);
  });

  it('gives nothing for no keys', () => {
    expect(groupKeys([])).toEqual([]);
  });
});

describe('the expiry report CSV (document 3 §9)', () => {
  it('has the columns Service, Email, Key, Expires, Status, Attempts; an empty status is pending; odd text is quoted', () => {
    const csv = expiryReportCsv([
      { id: 1, serviceName: 'Netflix', email: 'a@x.mn', key: 'SK-1-NFX', expiresAt: '2026-11-25T08:00:00.000Z', notificationStatus: 'sent', notificationError: null, notificationAttempts: 1 },
      { id: 2, serviceName: 'Disney+, "Kids"', email: 'b@x.mn', key: 'SK-2-DPS', expiresAt: '2026-11-26T08:00:00.000Z', notificationStatus: null, notificationError: null, notificationAttempts: 0 },
    ]);
    expect(csv.split('\r\n')).toEqual([
      CSV_COLUMNS.join(','),
      'Netflix,a@x.mn,SK-1-NFX,2026-11-25T08:00:00.000Z,sent,1',
      '"Disney+, ""Kids""",b@x.mn,SK-2-DPS,2026-11-26T08:00:00.000Z,pending,0',
      '',
    ]);
    expect(CSV_COLUMNS).toEqual(['Service', 'Email', 'Key', 'Expires', 'Status', 'Attempts']);
  });

  it('names the file with the day of the export', () => {
    expect(expiryReportFileName(new Date(2026, 10, 3, 9))).toBe('expiry-report-2026-11-03.csv');
  });
});

describe('keyInfo', () => {
  it('says what a customer needs: service, e-mail, profile, key and expiry day', () => {
    expect(keyInfo({ ...key(41, 'nfx.account1@example.mn', 'NFX', 3), serviceName: 'Netflix' })).toBe(
      'Service: Netflix\nEmail: nfx.account1@example.mn\nProfile: 3\nKey: SK-0000000041-NFX\nExpires: 2026-12-23',
    );
    // Ulaanbaatar's day, whatever the browser's zone: 23:00 UTC on 27 February is 07:00 on the 28th there.
    expect(keyInfo({ ...key(41, 'nfx.account1@example.mn', 'NFX', 3), expiresAt: '2027-02-27T23:00:00.000Z' }).split('\n').at(-1)).toBe('Expires: 2027-02-28');
  });
});
