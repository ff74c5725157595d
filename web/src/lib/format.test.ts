import { describe, expect, it } from 'vitest';
import { amountOf, formatters, hasLocaleData } from './format';

describe('formatters', () => {
  it('writes tugrik amounts with ₮ and the locale grouping, without minor units', () => {
    expect(formatters('en').tugrik(45000)).toBe('₮45,000');
    expect(formatters('mn').tugrik(1234567)).toBe('₮\u00a01,234,567');
    expect(formatters('en').tugrik(45000.4)).toBe('₮45,000');
  });

  it('formats numbers and dates by locale', () => {
    expect(formatters('en').number(1234567.5)).toBe('1,234,567.5');
    const when = new Date(2026, 10, 23, 8, 5);
    expect(formatters('en').dateTime(when)).toBe('Nov 23, 2026, 8:05 AM');
    expect(formatters('mn').dateTime(when)).toBe('2026 оны 11-р сарын 23 08:05');
  });

  it("writes Mongolian as Intl's own Mongolian data does where a browser's Intl has none", () => {
    expect(hasLocaleData('mn')).toBe(true); // Node carries full ICU: the reference
    const withData = formatters('mn', true);
    const withoutData = formatters('mn', false);
    for (const when of [new Date(2026, 0, 5, 8, 5), new Date(2026, 10, 23, 23, 59), new Date(2027, 11, 31, 0, 0)]) {
      expect(withoutData.dateTime(when)).toBe(withData.dateTime(when));
    }
    for (const amount of [0, 999, 25000, 1234567, 45000.6]) expect(withoutData.tugrik(amount)).toBe(withData.tugrik(amount));
    for (const value of [0, 1234567.5, 0.25]) expect(withoutData.number(value)).toBe(withData.number(value));
    for (const when of [new Date(2026, 0, 5, 13, 0), new Date(2026, 0, 5, 8, 30)]) expect(withoutData.hour(when)).toBe(withData.hour(when));
  });
});

describe('amountOf', () => {
  it('reads plain amounts and leaves anything else as text', () => {
    expect(amountOf('45000')).toBe(45000);
    expect(amountOf(' 45000.50 ')).toBe(45000.5);
    expect(amountOf('')).toBeNull();
    expect(amountOf('45,000')).toBeNull();
    expect(amountOf('from 5000')).toBeNull();
  });
});
