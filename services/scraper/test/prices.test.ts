import { describe, expect, it } from 'vitest';
import { commissionFor, priceInMnt } from '@bo/proto/scraper-prices';

describe('prices in MNT (document 2 §5 and §9)', () => {
  const tiers = [
    { minPrice: 0, maxPrice: 10, commissionRate: 20 },
    { minPrice: 10, maxPrice: 50, commissionRate: 12.5 },
    { minPrice: 100, maxPrice: null, commissionRate: 5 },
  ];

  it('gives a price its tier: at least min, below max, no upper limit when max is empty; the global rate between tiers', () => {
    expect(commissionFor(0, tiers, 8)).toBe(20);
    expect(commissionFor(9.99, tiers, 8)).toBe(20);
    expect(commissionFor(10, tiers, 8)).toBe(12.5); // max is not inside its tier
    expect(commissionFor(49.99, tiers, 8)).toBe(12.5);
    expect(commissionFor(50, tiers, 8)).toBe(8); // between tiers
    expect(commissionFor(99.99, tiers, 8)).toBe(8);
    expect(commissionFor(100, tiers, 8)).toBe(5);
    expect(commissionFor(1_000_000, tiers, 8)).toBe(5);
    expect(commissionFor(25, [], 0)).toBe(0); // no tiers, the default commission
  });

  it('adds the commission to the USD price, converts at the rate and rounds to whole tögrög', () => {
    expect(priceInMnt(10, 0, 3400)).toBe(34_000);
    expect(priceInMnt(4.99, 12.5, 3400)).toBe(19_087); // 4.99 × 1.125 × 3400 = 19086.75
    expect(priceInMnt(0.01, 0, 3450.5)).toBe(35); // 34.505
    expect(priceInMnt(1.5, 20, 3333)).toBe(5_999); // 5999.4
    // Exactly on a half: binary fractions made these 195.4999…, 977.4999… and 994.4999… (one tögrög short).
    expect(priceInMnt(0.05, 15, 3400)).toBe(196);
    expect(priceInMnt(0.25, 15, 3400)).toBe(978);
    expect(priceInMnt(0.26, 12.5, 3400)).toBe(995);
  });
});
