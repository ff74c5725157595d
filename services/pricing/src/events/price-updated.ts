import { pricingPriceUpdated, type PriceRow } from '@bo/proto';
import type { z } from 'zod';

/**
 * What pricing publishes when an edit reached the sheet: pricing.price.updated, with the row
 * before and after and the product's revision. Emitted in the edit's own transaction (app.ts).
 */
export const priceUpdatedEvent = pricingPriceUpdated;

export function priceUpdatedPayload(row: PriceRow, previous: PriceRow | null, revision: number): z.infer<typeof pricingPriceUpdated.payload> {
  return { product: row.product, revision, row, previous };
}
