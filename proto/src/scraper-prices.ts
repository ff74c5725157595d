/**
 * Document 2 §5 and §9: a scraped USD price in tögrög. Shared by the scraper (what the shop is
 * given) and the web app (what the page shows), so both work it the same way; no zod here, so the
 * web app can import it at run time.
 */

/** A commission band: a USD price >= minPrice and < maxPrice (null: no upper limit) gets commissionRate percent. */
export interface Tier {
  minPrice: number;
  maxPrice: number | null;
  commissionRate: number;
}

/** The commission percent on a USD price: its tier's (tiers never overlap), else the global rate (document 2 §5). */
export function commissionFor(priceUsd: number, tiers: readonly Tier[], globalRate: number): number {
  const tier = tiers.find((one) => priceUsd >= one.minPrice && (one.maxPrice === null || priceUsd < one.maxPrice));
  return tier ? tier.commissionRate : globalRate;
}

/**
 * Document 2 §9: USD with commission = price × (1 + commission / 100); MNT = round(that × rate), a
 * half rounded up. Worked in whole cents, hundredths of a percent and ten-thousandths of a tugrik
 * (the columns' scales), so a price on a rounding boundary is not pushed across it by binary
 * fractions (1.15 × 1.1 × 3400 is 4301 exactly, not 4300.999…).
 */
export function priceInMnt(priceUsd: number, commissionPercent: number, rate: number): number {
  const cents = BigInt(Math.round(priceUsd * 100));
  const percentHundredths = BigInt(Math.round(commissionPercent * 100));
  const rateTenThousandths = BigInt(Math.round(rate * 10_000));
  const scale = 100n * 10_000n * 10_000n;
  const exact = cents * (10_000n + percentHundredths) * rateTenThousandths;
  const sign = exact < 0n ? -1n : 1n;
  return Number((sign * exact + scale / 2n) / scale) * Number(sign);
}

/** What a USD price becomes in the shop: the exchange rate, the global commission and the tiers. */
export interface PricingRules {
  rate: number;
  commissionRate: number;
  tiers: readonly Tier[];
}

/** A scraped USD price in tögrög as the rules make it now (its tier's commission, else the global one). */
export function shopPriceMnt(priceUsd: number, rules: PricingRules): number {
  return priceInMnt(priceUsd, commissionFor(priceUsd, rules.tiers, rules.commissionRate), rules.rate);
}
