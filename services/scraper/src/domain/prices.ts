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

/** Document 2 §9: USD with commission = price × (1 + commission / 100); MNT = round(that × rate). */
export function priceInMnt(priceUsd: number, commissionPercent: number, rate: number): number {
  return Math.round(priceUsd * (1 + commissionPercent / 100) * rate);
}
