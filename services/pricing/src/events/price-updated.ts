import { createEnvelope, pricingPriceUpdated, type EventEnvelope, type PriceRow } from '@bo/proto';

/**
 * What pricing publishes when an edit reached the sheet: pricing.price.updated, with the row
 * before and after and the product's revision. Enqueued through the outbox in the edit's own
 * transaction (store/).
 */
export function priceUpdated(row: PriceRow, previous: PriceRow | null, revision: number, correlationId: string | null): EventEnvelope {
  return createEnvelope(pricingPriceUpdated, { product: row.product, revision, row, previous }, correlationId);
}
