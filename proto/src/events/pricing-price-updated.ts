import { z } from 'zod';
import { defineEvent } from '../envelope';
import { priceRowSchema } from '../http/prices';

/** A price row was edited through the dashboard and written to the spreadsheet. */
export const pricingPriceUpdated = defineEvent({
  name: 'pricing.price.updated',
  version: 1,
  payload: z.object({
    product: z.string().min(1),
    row: priceRowSchema,
    previous: priceRowSchema.nullable(),
  }),
  example: {
    product: 'Netflix 1 month',
    row: {
      type: 'simple', parent: '', woocommerceId: '101', product: 'Netflix 1 month', description: 'NFX-1M',
      regularPrice: '25000', salePrice: '', status: 'publish', stockStatus: 'instock', attributes: '', categories: 'Streaming',
    },
    previous: null,
  },
});
