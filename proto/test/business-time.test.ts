import { describe, expect, it } from 'vitest';
import { addBusinessMonths, BUSINESS_TIME_ZONE, businessDate, businessInstant, businessTimeOf, daysInMonth, startOfBusinessDay } from '../src/business-time';

/** Ulaanbaatar is UTC+8 all year: `ub('2027-01-31 07:00')` is that wall-clock time there. */
const ub = (wall: string) => new Date(`${wall.replace(' ', 'T')}:00.000+08:00`);

describe("the business's calendar (Ulaanbaatar)", () => {
  it('is one zone, Ulaanbaatar', () => {
    expect(BUSINESS_TIME_ZONE).toBe('Asia/Ulaanbaatar');
  });

  it("reads and writes Ulaanbaatar's wall clock, whatever the process's zone", () => {
    expect(businessTimeOf(new Date('2027-01-30T23:00:00.250Z'))).toEqual({ year: 2027, month: 1, day: 31, hour: 7, minute: 0, second: 0, millisecond: 250 });
    expect(businessInstant({ year: 2027, month: 1, day: 31, hour: 7, minute: 0, second: 0, millisecond: 250 }).toISOString()).toBe('2027-01-30T23:00:00.250Z');
    // Every hour of a day round-trips, midnight included.
    for (let hour = 0; hour < 24; hour++) {
      const at = ub(`2026-12-07 ${String(hour).padStart(2, '0')}:30`);
      expect(businessInstant(businessTimeOf(at)).getTime()).toBe(at.getTime());
    }
  });

  it("gives Ulaanbaatar's date and the start of its day", () => {
    expect(businessDate(new Date('2026-12-07T15:59:59.999Z'))).toBe('2026-12-07');
    expect(businessDate(new Date('2026-12-07T16:00:00.000Z'))).toBe('2026-12-08');
    expect(startOfBusinessDay(new Date('2026-12-07T20:00:00.000Z')).toISOString()).toBe('2026-12-07T16:00:00.000Z');
    expect(startOfBusinessDay(new Date('2026-12-07T02:00:00.000Z')).toISOString()).toBe('2026-12-06T16:00:00.000Z');
  });

  it('knows the length of every month, leap Februaries included', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => daysInMonth(2027, month))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
  });

  describe('adds calendar months in Ulaanbaatar, keeping the time of day, a missing day becoming the last', () => {
    const cases: [string, number, string][] = [
      // The customer's case: bought 31 January 07:00 there (30 January 23:00 UTC). UTC months gave 1 March 07:00.
      ['2027-01-31 07:00', 1, '2027-02-28 07:00'],
      ['2028-01-31 07:00', 1, '2028-02-29 07:00'],
      ['2027-01-30 12:00', 1, '2027-02-28 12:00'],
      ['2027-01-29 12:00', 1, '2027-02-28 12:00'],
      ['2028-01-29 12:00', 1, '2028-02-29 12:00'],
      ['2028-02-29 09:15', 12, '2029-02-28 09:15'],
      ['2028-02-29 09:15', 48, '2032-02-29 09:15'],
      // The end of the year.
      ['2026-12-29 10:00', 1, '2027-01-29 10:00'],
      ['2026-12-30 10:00', 1, '2027-01-30 10:00'],
      ['2026-12-31 10:00', 1, '2027-01-31 10:00'],
      ['2026-12-31 23:30', 1, '2027-01-31 23:30'],
      ['2026-12-31 10:00', 2, '2027-02-28 10:00'],
      ['2026-12-29 10:00', 2, '2027-02-28 10:00'],
      ['2027-11-30 10:00', 3, '2028-02-29 10:00'],
      ['2026-12-07 10:56', 12, '2027-12-07 10:56'],
      // The first of a month early in the morning is still the last day of the month before in UTC.
      ['2027-03-01 05:00', 1, '2027-04-01 05:00'],
      ['2027-01-01 00:00', 1, '2027-02-01 00:00'],
      // 30-day months.
      ['2027-03-31 18:00', 1, '2027-04-30 18:00'],
      ['2027-05-31 18:00', 1, '2027-06-30 18:00'],
      ['2027-08-31 18:00', 1, '2027-09-30 18:00'],
      ['2027-10-31 18:00', 1, '2027-11-30 18:00'],
      ['2027-07-31 18:00', 1, '2027-08-31 18:00'],
      ['2027-06-15 18:00', 0, '2027-06-15 18:00'],
    ];
    for (const [from, months, to] of cases) {
      it(`${from} + ${months} month(s) = ${to}`, () => {
        expect(addBusinessMonths(ub(from), months).toISOString()).toBe(ub(to).toISOString());
      });
    }

    it('keeps the milliseconds', () => {
      expect(addBusinessMonths(new Date('2027-01-30T23:00:00.123Z'), 1).toISOString()).toBe('2027-02-27T23:00:00.123Z');
    });
  });
});
