import { describe, expect, it } from 'vitest';
import { addMonths, extendedExpiry, extendedKeyExpiry, keyInfoText, newKeyExpiry, startOfToday } from '../src/domain/keys';

/** A wall-clock time in Ulaanbaatar (UTC+8 all year). */
const ub = (wall: string) => new Date(`${wall.replace(' ', 'T')}:00.000+08:00`);

/**
 * A key's dates, each on a fixed clock: every caller of the month arithmetic (a sale, a renewal, an
 * admin's extension, the admin's "months" on a new key) counts calendar months in Ulaanbaatar.
 */
describe("a key's dates are Ulaanbaatar's calendar", () => {
  it('sells "1 month" on 31 January at 07:00 there until 28 February 07:00, and in a leap year until the 29th', () => {
    // 30 January 23:00 UTC: counted in UTC, the month ended on 1 March 07:00 in Ulaanbaatar.
    expect(addMonths(ub('2027-01-31 07:00'), 1)).toEqual(ub('2027-02-28 07:00'));
    expect(addMonths(ub('2028-01-31 07:00'), 1)).toEqual(ub('2028-02-29 07:00'));
    expect(addMonths(ub('2026-12-31 21:00'), 1)).toEqual(ub('2027-01-31 21:00'));
    expect(addMonths(ub('2026-12-30 21:00'), 2)).toEqual(ub('2027-02-28 21:00'));
  });

  it("gives a new key's months from the moment it is made, and a chosen date from today in Ulaanbaatar on", () => {
    const now = ub('2027-01-31 07:00');
    expect(newKeyExpiry({ months: 1 }, now)).toEqual({ expiresAt: ub('2027-02-28 07:00') });
    expect(newKeyExpiry({ months: 12 }, now)).toEqual({ expiresAt: ub('2028-01-31 07:00') });
    // 04:00 on 8 December there is still 7 December in UTC: the 7th is already yesterday.
    const early = ub('2026-12-08 04:00');
    expect(startOfToday(early)).toEqual(ub('2026-12-08 00:00'));
    expect(newKeyExpiry({ expiresAt: '2026-12-07' }, early)).toEqual({ error: 'Expiry date cannot be in the past' });
    expect(newKeyExpiry({ expiresAt: '2026-12-08' }, early)).toEqual({ expiresAt: new Date('2026-12-08T00:00:00.000Z') });
    expect(newKeyExpiry({ months: 1, expiresAt: '2026-12-09' }, early)).toEqual({ error: 'Please select duration or custom date' });
  });

  it('extends (a renewal, an admin) from the later of now and the expiry, so no paid time is lost', () => {
    const now = ub('2027-01-15 12:00');
    // Still running: from its expiry.
    expect(extendedExpiry(ub('2027-01-31 07:00'), 1, now)).toEqual(ub('2027-02-28 07:00'));
    expect(extendedExpiry(ub('2027-01-31 07:00'), 3, now)).toEqual(ub('2027-04-30 07:00'));
    // Already expired: from now.
    expect(extendedExpiry(ub('2027-01-02 07:00'), 1, now)).toEqual(ub('2027-02-15 12:00'));
    expect(extendedKeyExpiry(ub('2026-12-31 10:00'), { months: 2 }, now)).toEqual({ expiresAt: ub('2027-03-15 12:00'), months: 2 });
    expect(extendedKeyExpiry(ub('2027-01-31 07:00'), { months: 1 }, now)).toEqual({ expiresAt: ub('2027-02-28 07:00'), months: 1 });
    // The current expiry is named as Ulaanbaatar's date (28 February there, 27 February in UTC).
    expect(extendedKeyExpiry(ub('2027-02-28 07:00'), { expiresAt: '2027-02-20' }, now)).toEqual({ error: 'The new expiry must be later than the current one (2027-02-28)' });
    expect(extendedKeyExpiry(ub('2027-02-28 07:00'), { expiresAt: '2027-03-01' }, now)).toEqual({ expiresAt: new Date('2027-03-01T00:00:00.000Z'), months: null });
  });

  it("writes the expiry day of a key's QR code as Ulaanbaatar's", () => {
    const text = keyInfoText({ service: 'NFX', email: 'nfx.1@example.mn', profileNumber: 2, key: 'SK-ABCDEFGHJK-NFX', expiresAt: ub('2027-02-28 07:00') });
    expect(text.split('\n')).toEqual(['Service: Netflix', 'Email: nfx.1@example.mn', 'Profile: 2', 'Key: SK-ABCDEFGHJK-NFX', 'Expires: 2027-02-28']);
  });
});
