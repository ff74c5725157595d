/** The marketplace's games, products and seller offers, generated from a seed so every run sees the same site. */
import { seededRandom } from '@bo/sim-kit';

export interface Offer {
  id: string;
  gameSlug: string;
  gameName: string;
  productName: string;
  attributeName: string;
  variationValue: string;
  /** US cents, so repeated percentage changes stay exact to the cent. */
  priceCents: number;
  sellerName: string;
  sellerLevel: number;
  sellerLocation: string;
  /** Percent, one decimal. */
  orderSuccessRate: number;
  totalSales: number;
  ratingDescription: number;
  ratingService: number;
  ratingSpeed: number;
}

export interface Game {
  slug: string;
  name: string;
}

interface ProductTemplate {
  product: string;
  attribute: string;
  /** Variation value and its typical USD price. */
  variations: [string, number][];
}

const GAMES: (Game & { products: ProductTemplate[] })[] = [
  {
    slug: 'genshin-impact',
    name: 'Genshin Impact',
    products: [
      { product: 'Genesis Crystals', attribute: 'Amount', variations: [['60 Genesis Crystals', 0.99], ['300+30 Genesis Crystals', 4.99], ['980+110 Genesis Crystals', 14.99], ['1980+260 Genesis Crystals', 29.99], ['3280+600 Genesis Crystals', 49.99], ['6480+1600 Genesis Crystals', 99.99]] },
      { product: 'Blessing of the Welkin Moon', attribute: 'Server', variations: [['Asia', 4.99], ['America', 4.99], ['Europe', 4.99], ['TW, HK, MO', 4.99]] },
    ],
  },
  {
    slug: 'mobile-legends',
    name: 'Mobile Legends',
    products: [
      { product: 'Diamonds', attribute: 'Amount', variations: [['86 Diamonds', 1.55], ['172 Diamonds', 3.1], ['257 Diamonds', 4.6], ['344 Diamonds', 6.2], ['706 Diamonds', 12.4], ['2195 Diamonds', 37.5]] },
      { product: 'Weekly Diamond Pass', attribute: 'Server', variations: [['Global', 1.95], ['Indonesia', 1.85], ['Philippines', 1.9]] },
    ],
  },
  {
    slug: 'pubg-mobile',
    name: 'PUBG Mobile',
    products: [
      { product: 'Unknown Cash', attribute: 'Amount', variations: [['60 UC', 0.99], ['325 UC', 4.99], ['660 UC', 9.99], ['1800 UC', 24.99], ['3850 UC', 49.99], ['8100 UC', 99.99]] },
      { product: 'Royale Pass', attribute: 'Server', variations: [['Global', 9.99], ['Korea', 10.5]] },
    ],
  },
  {
    slug: 'valorant',
    name: 'Valorant',
    products: [
      { product: 'Valorant Points', attribute: 'Amount', variations: [['475 VP', 4.99], ['1000 VP', 9.99], ['2050 VP', 19.99], ['3650 VP', 34.99], ['5350 VP', 49.99]] },
      { product: 'Valorant Account', attribute: 'Server', variations: [['Europe', 14.5], ['North America', 16], ['Asia Pacific', 12.75]] },
    ],
  },
  {
    slug: 'roblox',
    name: 'Roblox',
    products: [
      { product: 'Robux', attribute: 'Amount', variations: [['400 Robux', 4.99], ['800 Robux', 9.99], ['1700 Robux', 19.99], ['4500 Robux', 49.99], ['10000 Robux', 99.99]] },
      { product: 'Roblox Gift Card', attribute: 'Region', variations: [['Global', 10], ['United States', 25]] },
    ],
  },
];

const SELLERS = ['GameBoostPro', 'TopUpKing', 'LunaStore', 'PixelVault', 'DragonTrade', 'NovaGamesHub', 'SkyTopUp', 'MetaLootShop', 'RapidCoins', 'AuroraDigital', 'KoiGameMart', 'ZenithTopUp'];
const LOCATIONS = ['Malaysia', 'Singapore', 'Indonesia', 'Philippines', 'Vietnam', 'Hong Kong', 'Thailand', 'United States'];


export const games: Game[] = GAMES.map(({ slug, name }) => ({ slug, name }));

/**
 * Every game's offers: one to three sellers per variation (times `sellersScale`, for a bench that
 * needs hundreds of pages), prices around the typical price.
 */
export function generateOffers(seed: number, sellersScale = 1): Offer[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number, decimals: number) => Number((low + random() * (high - low)).toFixed(decimals));
  const offers: Offer[] = [];
  for (const game of GAMES) {
    let n = 0;
    for (const template of game.products) {
      for (const [variationValue, typicalUsd] of template.variations) {
        const sellers = (1 + Math.floor(random() * 3)) * sellersScale;
        for (let s = 0; s < sellers; s += 1) {
          n += 1;
          offers.push({
            id: `${game.slug}-${String(n).padStart(3, '0')}`,
            gameSlug: game.slug,
            gameName: game.name,
            productName: template.product,
            attributeName: template.attribute,
            variationValue,
            priceCents: Math.max(1, Math.round(typicalUsd * between(0.85, 1.15, 3) * 100)),
            sellerName: pick(SELLERS),
            sellerLevel: 1 + Math.floor(random() * 150),
            sellerLocation: pick(LOCATIONS),
            orderSuccessRate: between(92, 100, 1),
            totalSales: Math.floor(random() * 60_000),
            ratingDescription: between(4, 5, 1),
            ratingService: between(4, 5, 1),
            ratingSpeed: between(4, 5, 1),
          });
        }
      }
    }
  }
  return offers;
}
