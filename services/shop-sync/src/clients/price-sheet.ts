import { ServiceClient } from '@bo/platform';
import { listPrices, mergeSheetRows, type PriceRow } from '@bo/proto';

/** The price sheet, through the pricing service that owns it (internal calls with shop-sync's identity). */
export class PriceSheetClient {
  constructor(private readonly pricing: ServiceClient) {}

  async read(): Promise<{ rows: PriceRow[]; stale: boolean }> {
    const list = await this.pricing.call(listPrices, { query: { format: 'array' } });
    return { rows: list.data as PriceRow[], stale: list.stale };
  }

  merge(rows: PriceRow[]) {
    // A long sheet write is one Sheets call each for the update and the append; allow for slow Google.
    return this.pricing.call(mergeSheetRows, { body: { rows }, timeoutMs: 60_000 });
  }
}
