import type { SpreadsheetSeed } from './state';

export const PRICE_LIST_SPREADSHEET_ID = 'sim-price-list';

export const PRICE_LIST_HEADER = ['type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice', 'salePrice', 'status', 'stockStatus', 'attributes', 'categories'];

/** The shop's price list (prices in MNT) in document 1's array format, header row first, on 'Sheet1'. */
export function defaultPriceList(sharedWith?: string[]): SpreadsheetSeed {
  return {
    id: PRICE_LIST_SPREADSHEET_ID,
    title: 'Price list',
    sharedWith,
    sheets: [
      {
        title: 'Sheet1',
        rows: [
          PRICE_LIST_HEADER,
          ['simple', '', '101', 'Netflix Premium 1 month', 'NF-PREM-1M', '45000', '', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '102', 'Netflix Premium 3 months', 'NF-PREM-3M', '125000', '119000', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '103', 'Netflix Standard 1 month', 'NF-STD-1M', '32000', '', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '111', 'Disney+ 1 month', 'DSNY-1M', '25000', '', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '112', 'Disney+ 12 months', 'DSNY-12M', '250000', '229000', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '121', 'Prime Video 1 month', 'PRIME-1M', '18000', '', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '131', 'Hulu 1 month', 'HULU-1M', '22000', '', 'publish', 'outofstock', '', 'Streaming'],
          ['simple', '', '141', 'HBO Max 1 month', 'HBO-1M', '28000', '', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '142', 'HBO Max 6 months', 'HBO-6M', '150000', '139000', 'publish', 'instock', '', 'Streaming'],
          ['simple', '', '201', 'PUBG Mobile 660 UC', 'PUBG-660UC', '32000', '', 'publish', 'instock', '', 'Games'],
          ['simple', '', '202', 'Mobile Legends 257 Diamonds', 'MLBB-257', '18500', '', 'publish', 'instock', '', 'Games'],
          ['variable', '', '301', 'Free Fire Diamonds', 'FF-DIAMONDS', '', '', 'publish', 'instock', 'Diamonds: 100 | 310 | 520', 'Games'],
          ['variation', '301', '302', 'Free Fire Diamonds - 100', 'FF-100', '4500', '', 'publish', 'instock', 'Diamonds: 100', 'Games'],
          ['variation', '301', '303', 'Free Fire Diamonds - 310', 'FF-310', '13500', '', 'publish', 'instock', 'Diamonds: 310', 'Games'],
          ['variation', '301', '304', 'Free Fire Diamonds - 520', 'FF-520', '22000', '21000', 'publish', 'instock', 'Diamonds: 520', 'Games'],
        ],
      },
    ],
  };
}
