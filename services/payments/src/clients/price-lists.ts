import { ServiceCallError, ServiceClient, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import { listedProductPrice, listedStreamingPrice, type ServiceCode } from '@bo/proto';

/** A product's listed price and the name customers know it by. */
export interface ListedPrice {
  name: string;
  price: number;
}

/**
 * The two price lists a chat order is charged from (issue 18 §1): streaming-keys' for streaming
 * codes, pricing's sheet for every other product. A product neither lists is null; a list that
 * cannot be read is a 503, never a reason to take the request's own amount.
 */
export class PriceLists {
  private readonly streamingKeys: ServiceClient;
  private readonly pricing: ServiceClient;

  constructor(options: { streamingKeysUrl: string; pricingUrl: string; signer: IdentitySigner }) {
    // The chat waits for the whole webhook (ManyChat gives up after 10 s): a price must come quickly.
    const common = { signer: options.signer, timeoutMs: 5_000 };
    this.streamingKeys = new ServiceClient({ ...common, baseUrl: options.streamingKeysUrl });
    this.pricing = new ServiceClient({ ...common, baseUrl: options.pricingUrl });
  }

  streaming(service: ServiceCode, months: number): Promise<ListedPrice | null> {
    return this.ask('the streaming price list', async () => {
      const listed = await this.streamingKeys.call(listedStreamingPrice, { params: { service, months } });
      return { name: listed.name, price: listed.price };
    });
  }

  product(name: string): Promise<ListedPrice | null> {
    return this.ask('the price list', async () => {
      const listed = await this.pricing.call(listedProductPrice, { params: { product: name } });
      return { name: listed.product, price: listed.price };
    });
  }

  private async ask(what: string, call: () => Promise<ListedPrice>): Promise<ListedPrice | null> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ServiceCallError && error.status === 404) return null;
      throw serviceUnavailable(`Cannot read ${what} right now, so no price can be charged: try again shortly`);
    }
  }
}
