import { z } from 'zod';
import { defineEvent } from '../envelope';
import { priceRowSchema } from '../http/prices';

/**
 * A price row was edited through the dashboard and written to the spreadsheet. `revision` is the
 * product's revision in pricing (it grows with every edit of that product), so a consumer can
 * skip an older edit that arrives after a newer one.
 */
export const pricingPriceUpdated = defineEvent({
  name: 'pricing.price.updated',
  version: 1,
  payload: z.object({
    product: z.string().min(1),
    revision: z.number().int().nonnegative(),
    row: priceRowSchema,
    previous: priceRowSchema.nullable(),
  }),
  entity: { name: 'price', key: 'product', revision: 'revision' },
  example: {
    product: 'Netflix 1 month',
    revision: 3,
    row: {
      type: 'simple', parent: '', woocommerceId: '101', product: 'Netflix 1 month', description: 'NFX-1M',
      regularPrice: '25000', salePrice: '', status: 'publish', stockStatus: 'instock', attributes: '', categories: 'Streaming',
    },
    previous: null,
  },
});
