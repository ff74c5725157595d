import { describe, expect, it } from 'vitest';
import { chooseDate, chooseMonths, customerIdValue, earliestExpiryDate, expiryOf, extensionByKeyText, inlinePrice, newKeysRequest, noExpiry, priceRequest, todayInput } from './forms';

const keys = [
  { id: 7, key: 'SK-7Q2M4P9X3K-NFX' },
  { id: 8, key: 'SK-AAAAAAAAAA-DPS' },
];

describe('the expiry choice (document 3 §4)', () => {
  it('choosing months clears the custom date, and choosing a date clears the months', () => {
    const withDate = chooseDate('2027-01-31');
    expect(withDate).toEqual({ months: '', date: '2027-01-31' });
    expect(chooseMonths('3')).toEqual({ months: '3', date: '' });
    expect(expiryOf(chooseMonths('3'))).toEqual({ months: 3 });
    expect(expiryOf(withDate)).toEqual({ expiresAt: '2027-01-31' });
    expect(expiryOf(noExpiry)).toBeNull();
  });

  it("writes today as the browser's own calendar day", () => {
    expect(todayInput(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(todayInput(new Date(2026, 10, 23, 0, 1))).toBe('2026-11-23');
  });

  it("offers no custom date before today in Ulaanbaatar, where the server's day is, nor before the browser's", () => {
    // 20:00 UTC on 7 December is already the 8th in Ulaanbaatar; a browser in UTC or west of it still says the 7th.
    expect(earliestExpiryDate(new Date('2026-12-07T20:00:00.000Z'))).toBe('2026-12-08');
    // 02:00 UTC is 10:00 on the 7th there; no browser's zone is ahead of the 7th yet (UTC+14 is 16:00).
    expect(earliestExpiryDate(new Date('2026-12-07T02:00:00.000Z'))).toBe('2026-12-07');
  });
});

describe('extend by key text (document 3 §5)', () => {
  it("asks for a key, then says 'Key not found' for text matching no loaded key, then asks for the duration", () => {
    expect(extensionByKeyText('  ', keys, chooseMonths('1'))).toEqual({ problem: 'streamingKeys.enterKey' });
    expect(extensionByKeyText('SK-NOSUCHKEY00-NFX', keys, chooseMonths('1'))).toEqual({ problem: 'streamingKeys.keyNotFound' });
    expect(extensionByKeyText('SK-7Q2M4P9X3K-NFX', keys, noExpiry)).toEqual({ problem: 'streamingKeys.selectExpiry' });
  });

  it('finds the key whatever its case and spaces, and sends its id with the months or the date', () => {
    expect(extensionByKeyText(' sk-7q2m4p9x3k-nfx ', keys, chooseMonths('2'))).toEqual({ keyId: 7, months: 2 });
    expect(extensionByKeyText('SK-AAAAAAAAAA-DPS', keys, chooseDate('2027-03-01'))).toEqual({ keyId: 8, expiresAt: '2027-03-01' });
  });
});

describe('create keys (document 3 §5)', () => {
  const form = { service: 'NFX' as const, email: ' acc@example.mn ', expiry: chooseMonths('1'), profiles: '2', password: '' };

  it("needs the service, the e-mail and an expiry: 'Please fill in all required fields'", () => {
    expect(newKeysRequest({ ...form, service: '' })).toEqual({ problem: 'streamingKeys.fillRequired' });
    expect(newKeysRequest({ ...form, email: '  ' })).toEqual({ problem: 'streamingKeys.fillRequired' });
    expect(newKeysRequest({ ...form, expiry: noExpiry })).toEqual({ problem: 'streamingKeys.fillRequired' });
  });

  it('sends the trimmed e-mail and the profiles, and the password only when given', () => {
    expect(newKeysRequest(form)).toEqual({ service: 'NFX', email: 'acc@example.mn', months: 1, profiles: 2 });
    expect(newKeysRequest({ ...form, expiry: chooseDate('2027-01-01'), password: ' Shared-1 ' })).toEqual({
      service: 'NFX', email: 'acc@example.mn', expiresAt: '2027-01-01', profiles: 2, password: 'Shared-1',
    });
  });
});

describe('customer id and inline price (document 3 §5)', () => {
  it('sends a blank customer id as null', () => {
    expect(customerIdValue('   ')).toBeNull();
    expect(customerIdValue(' 9000001 ')).toBe('9000001');
  });

  it('parses the inline price as an integer; empty (save disabled) is null', () => {
    expect(inlinePrice('')).toBeNull();
    expect(inlinePrice('  ')).toBeNull();
    expect(inlinePrice('abc')).toBeNull();
    expect(inlinePrice('32000.9')).toBe(32000);
    expect(inlinePrice('0')).toBe(0);
  });
});

describe('the pricing form (document 3 §5)', () => {
  const valid = { service: 'DPS' as const, serviceName: ' Disney+ ', duration: '3', price: '45000' };

  it('gives each field its message', () => {
    expect(priceRequest({ service: '', serviceName: ' ', duration: '0', price: '-1' })).toEqual({
      problems: {
        service: 'streamingKeys.serviceRequired',
        serviceName: 'streamingKeys.serviceNameRequired',
        duration: 'streamingKeys.durationMin',
        price: 'streamingKeys.priceMin',
      },
    });
    expect(priceRequest({ ...valid, duration: '13' })).toEqual({ problems: { duration: 'streamingKeys.durationMax' } });
    expect(priceRequest({ ...valid, price: '' })).toEqual({ problems: { price: 'streamingKeys.priceMin' } });
  });

  it('sends whole numbers and the trimmed name when all pass', () => {
    expect(priceRequest(valid)).toEqual({ service: 'DPS', serviceName: 'Disney+', duration: 3, price: 45000 });
    expect(priceRequest({ ...valid, duration: '12', price: '0' })).toEqual({ service: 'DPS', serviceName: 'Disney+', duration: 12, price: 0 });
  });
});
