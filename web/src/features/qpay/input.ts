/** What the new-invoice form accepts, read from what the admin typed (pure: input.test.ts). */

/** The contract's ceiling for one invoice (payments-routes.ts `tugrik`). */
const MAX_TUGRIK = 100_000_000;

/** A whole number of tugrik, as people write it: '35000', '35,000', '35 000', '₮35,000'. Null otherwise. */
export function tugrikOf(text: string): number | null {
  const digits = text.replace(/[\s,₮]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const amount = Number(digits);
  return amount > 0 && amount <= MAX_TUGRIK ? amount : null;
}
