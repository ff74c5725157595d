import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest, currentCorrelationId, parseInput } from '@bo/platform';
import { priceColumns, priceRowSchema, type PriceRow } from '@bo/proto';
import type { PriceCatalog } from '../price-catalog';
import { woocommerceSyncOutcome } from './woocommerce-sync';

/**
 * The dashboard sends the whole edited row; `originalProduct` names the row when the product name
 * itself was edited. The docs sample's single-cell form (rowIndex, columnIndex, value) is accepted too.
 */
const rowUpdate = priceRowSchema.extend({ originalProduct: z.string().trim().min(1).optional() }).strict();
const cellUpdate = z
  .object({
    rowIndex: z.number().int().min(0),
    columnIndex: z.number().int().min(0).max(priceColumns.length - 1),
    value: z.union([z.string(), z.number()]).transform(String),
  })
  .strict();

export function registerSheetRoutes(app: FastifyInstance, catalog: PriceCatalog): void {
  app.post('/api/sheets/update', async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    let edited: PriceRow;
    let match: string;
    if (body && 'rowIndex' in body) {
      const cell = parseInput(cellUpdate, body);
      const { rows } = await catalog.list();
      const current = rows[cell.rowIndex];
      if (!current) throw badRequest(`Invalid body: rowIndex: no data row ${cell.rowIndex} in the sheet`);
      edited = { ...current, [priceColumns[cell.columnIndex]]: cell.value };
      match = current.product;
    } else {
      const { originalProduct, ...row } = parseInput(rowUpdate, body);
      if (row.product.trim() === '') throw badRequest('Invalid body: product: must not be empty');
      edited = row;
      match = originalProduct ?? row.product;
    }
    const result = await catalog.update(edited, match, currentCorrelationId());
    return { success: true, data: result.row, woocommerceSync: woocommerceSyncOutcome() };
  });
}
