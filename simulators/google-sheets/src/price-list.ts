import type { SpreadsheetSeed } from './state';

export const PRICE_LIST_SPREADSHEET_ID = 'sim-price-list';

export const PRICE_LIST_HEADER = ['type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice', 'salePrice', 'status', 'stockStatus', 'attributes', 'categories'];

/**
 * The shop's price list (prices in MNT) in document 1's array format, header row first, on 'Sheet1'.
 * It describes the WooCommerce simulator's default shop (simulators/woocommerce/src/seed.ts, ids
 * 101–117) the way a real sheet drifts from its shop: most rows carry their shop id, two Spotify
 * variations only their SKU, one product only a differently cased name, two prices differ from the
 * shop's, one product is not in the shop and one names an id the shop no longer has.
 */
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
          ['variable', '', '101', 'Netflix Premium', 'NFX-PREM', '', '', 'publish', 'instock', 'Хугацаа: 1 сар | 3 сар | 6 сар', 'Стриминг'],
          ['variation', '101', '102', 'Netflix Premium - 1 сар', 'NFX-PREM-1', '36000', '', 'publish', 'instock', 'Хугацаа: 1 сар', 'Стриминг'],
          ['variation', '101', '103', 'Netflix Premium - 3 сар', 'NFX-PREM-2', '99000', '', 'publish', 'instock', 'Хугацаа: 3 сар', 'Стриминг'],
          ['variation', '101', '104', 'Netflix Premium - 6 сар', 'NFX-PREM-3', '189000', '179000', 'publish', 'instock', 'Хугацаа: 6 сар', 'Стриминг'],
          ['variable', '', '105', 'Spotify Premium', 'SPOT-PREM', '', '', 'publish', 'instock', 'Хугацаа: 1 сар | 3 сар', 'Стриминг'],
          ['variation', '105', '', 'Spotify Premium - 1 сар', 'SPOT-PREM-1', '15000', '', 'publish', 'instock', 'Хугацаа: 1 сар', 'Стриминг'],
          ['variation', '105', '', 'Spotify Premium - 3 сар', 'SPOT-PREM-2', '42000', '', 'publish', 'instock', 'Хугацаа: 3 сар', 'Стриминг'],
          ['simple', '', '108', 'YouTube Premium 1 сар', 'YT-PREM-1M', '19000', '17000', 'publish', 'instock', '', 'Стриминг'],
          ['simple', '', '109', 'Disney+ 1 сар', 'DSNY-1M', '25000', '', 'draft', 'instock', '', 'Стриминг'],
          ['simple', '', '', 'Netflix Standard 1 сар', 'NFX-STD-1M', '28000', '', 'publish', 'instock', '', 'Стриминг'],
          ['variable', '', '110', 'PUBG Mobile UC', 'PUBG-UC', '', '', 'publish', 'instock', 'Багц: 60 UC | 325 UC | 660 UC | 1800 UC', 'Тоглоом'],
          ['variation', '110', '111', 'PUBG Mobile UC - 60 UC', 'PUBG-UC-1', '4000', '', 'publish', 'instock', 'Багц: 60 UC', 'Тоглоом'],
          ['variation', '110', '112', 'PUBG Mobile UC - 325 UC', 'PUBG-UC-2', '19000', '', 'publish', 'instock', 'Багц: 325 UC', 'Тоглоом'],
          ['variation', '110', '113', 'PUBG Mobile UC - 660 UC', 'PUBG-UC-3', '38000', '', 'publish', 'instock', 'Багц: 660 UC', 'Тоглоом'],
          ['variation', '110', '114', 'PUBG Mobile UC - 1800 UC', 'PUBG-UC-4', '95000', '', 'publish', 'instock', 'Багц: 1800 UC', 'Тоглоом'],
          ['simple', '', '', 'Mobile Legends 86 diamonds', '', '7000', '', 'publish', 'instock', '', 'Тоглоом'],
          ['simple', '', '116', 'Steam Wallet $20', 'STEAM-20', '72000', '', 'publish', 'instock', '', 'Тоглоом'],
          ['simple', '', '117', 'Free Fire 520 Diamonds', 'FF-520', '15000', '', 'publish', 'outofstock', '', 'Тоглоом'],
          ['simple', '', '150', 'HBO Max 1 сар', 'HBO-1M', '28000', '', 'publish', 'instock', '', 'Стриминг'],
        ],
      },
    ],
  };
}
