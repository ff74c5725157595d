import { describe, expect, it } from 'vitest';
import { effectivePrice } from '@bo/proto';
import { allRowsRange, cellsFromRow, findRowIndex, quoteSheetName, rowRange, rowsFromSheet } from '../src/domain/price-rows';

const header = ['type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice', 'salePrice', 'status', 'stockStatus', 'attributes', 'categories'];

describe('price rows from the sheet', () => {
  it('skips the header, pads ragged rows and drops rows without a product', () => {
    const rows = rowsFromSheet([header, ['simple', '', '101', 'Netflix 1 month', 'NFX-1M', '25000'], [], ['simple', '', '', '   ']]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      type: 'simple', parent: '', woocommerceId: '101', product: 'Netflix 1 month', description: 'NFX-1M',
      regularPrice: '25000', salePrice: '', status: '', stockStatus: '', attributes: '', categories: '',
    });
  });

  it('reads an absent values key (empty sheet) as no rows', () => {
    expect(rowsFromSheet(undefined)).toEqual([]);
    expect(rowsFromSheet([header])).toEqual([]);
  });

  it('turns typed cells into text so a formatted number stays as the operator wrote it', () => {
    const [row] = rowsFromSheet([header, ['simple', '', 7, 'Hulu', 'HLU', 1200.5, true]]);
    expect(row.woocommerceId).toBe('7');
    expect(row.regularPrice).toBe('1200.5');
    expect(row.salePrice).toBe('true');
  });

  it('writes cells back in column order', () => {
    const [row] = rowsFromSheet([header, ['variable', 'p', '1', 'X', 'd', '10', '9', 'publish', 'instock', 'a', 'c']]);
    expect(cellsFromRow(row)).toEqual(['variable', 'p', '1', 'X', 'd', '10', '9', 'publish', 'instock', 'a', 'c']);
  });
});

describe('finding and pricing a product', () => {
  const rows = rowsFromSheet([header, ['simple', '', '', 'Netflix 1 month', '', '25000', '20000'], ['simple', '', '', 'Hulu', '', '15000', '']]);

  it('matches product names regardless of case and surrounding spaces', () => {
    expect(findRowIndex(rows, '  netflix 1 MONTH ')).toBe(0);
    expect(findRowIndex(rows, 'Disney')).toBe(-1);
  });

  it('charges the sale price when one is set, else the regular price', () => {
    expect(effectivePrice(rows[0])).toBe('20000');
    expect(effectivePrice(rows[1])).toBe('15000');
  });
});

describe('A1 ranges', () => {
  it('puts data row 0 on sheet row 2, across columns A to K', () => {
    expect(rowRange('Sheet1', 0)).toBe('Sheet1!A2:K2');
    expect(allRowsRange('Sheet1')).toBe('Sheet1!A:K');
  });

  it('quotes titles with spaces or quotes', () => {
    expect(quoteSheetName("Bob's Price List")).toBe("'Bob''s Price List'");
    expect(rowRange('Price List', 3)).toBe("'Price List'!A5:K5");
  });
});
