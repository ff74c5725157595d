import { ServiceClient, type IdentitySigner, type Logger } from '@bo/platform';
import { chargeablePrice, listPrices, type PriceRow } from '@bo/proto';
import { matchable, type MatchableProduct } from '../domain/price-matcher';

/** A product of the price list as the chat answers it. */
export interface ListedProduct {
  name: string;
  /** What a customer pays in whole tugrik (the sale price when one is set). */
  price: number;
  /** The regular price when a sale price is set, else null. */
  regularPrice: number | null;
  inStock: boolean;
}

/**
 * How long a copy of the price list answers before it is read again: an admin's price edit reaches
 * every replica's answers within about this long. A read is pricing's cached list (it keeps the
 * sheet's own cache), made in the background by the first question after it, so it is cheap.
 */
export const PRICE_LIST_REFRESH_MS = 5_000;

/**
 * pricing's price list, held in memory for the chat (a price answer must not wait for another
 * service): read at first use, read again in the background once it is 5 s old, and kept when a
 * read fails. Only published products with a price are answered; a variable product's parent row
 * has none (its variations do).
 */
export class PriceList {
  private readonly pricing: ServiceClient;
  private snapshot: { products: MatchableProduct<ListedProduct>[]; rows: string; readAt: number } | null = null;
  private reading: Promise<MatchableProduct<ListedProduct>[]> | null = null;
  private warming: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: { pricingUrl: string; signer: IdentitySigner; logger: Logger; now?: () => number }) {
    this.pricing = new ServiceClient({ baseUrl: options.pricingUrl, signer: options.signer, timeoutMs: 3_000 });
  }

  /**
   * Reads the list as the service starts, again every 2 s until one read works (pricing may start
   * after us), so the first customer's question does not wait for it.
   */
  warm(): void {
    if (this.snapshot || this.stopped) return;
    this.read().catch(() => {
      if (!this.stopped) this.warming = setTimeout(() => this.warm(), 2_000).unref();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.warming) clearTimeout(this.warming);
  }

  /** The products to match; waits only when no copy has been read yet. */
  async products(): Promise<MatchableProduct<ListedProduct>[]> {
    const now = (this.options.now ?? Date.now)();
    if (this.snapshot && now - this.snapshot.readAt < PRICE_LIST_REFRESH_MS) return this.snapshot.products;
    const reading = this.read();
    if (!this.snapshot) return reading;
    reading.catch((error: unknown) => this.options.logger.warn({ err: error }, 'the price list could not be read again; the chat answers from its last copy'));
    return this.snapshot.products;
  }

  private read(): Promise<MatchableProduct<ListedProduct>[]> {
    this.reading ??= (async () => {
      try {
        const list = await this.pricing.call(listPrices, { query: { format: 'array' } });
        const rows = JSON.stringify(list.data);
        // Read every 5 s, the list rarely changes: its products are worked out again only when it did.
        const products =
          this.snapshot?.rows === rows
            ? this.snapshot.products
            : (list.data as PriceRow[]).flatMap((row) => {
                const listed = listedProduct(row);
                return listed ? [matchable(listed, listed.name)] : [];
              });
        this.snapshot = { products, rows, readAt: (this.options.now ?? Date.now)() };
        return products;
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }
}

/** A row as the chat sells it: published and priced, else null. */
export function listedProduct(row: PriceRow): ListedProduct | null {
  const price = chargeablePrice(row);
  if (row.status.trim().toLowerCase() !== 'publish' || price === null) return null;
  const regular = chargeablePrice({ regularPrice: row.regularPrice, salePrice: '' });
  return {
    name: row.product.trim(),
    price,
    regularPrice: regular !== null && regular !== price ? regular : null,
    inStock: row.stockStatus.trim().toLowerCase() !== 'outofstock',
  };
}
