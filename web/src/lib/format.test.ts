import { describe, expect, it } from 'vitest';
import { amountOf, formatters } from './format';

describe('formatters', () => {
  it('writes tugrik amounts with ₮ and the locale grouping, without minor units', () => {
    expect(formatters('en').tugrik(45000)).toBe('₮45,000');
    expect(formatters('mn').tugrik(1234567)).toMatch(/^₮\s?1,234,567$/);
    expect(formatters('en').tugrik(45000.4)).toBe('₮45,000');
  });

  it('formats numbers and dates by locale', () => {
    expect(formatters('en').number(1234567.5)).toBe('1,234,567.5');
    const when = new Date(2026, 10, 23, 8, 5);
    expect(formatters('en').dateTime(when)).toBe('Nov 23, 2026, 8:05 AM');
    expect(formatters('mn').dateTime(when)).toContain('2026 оны 11-р сарын 23');
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
