import { describe, expect, it } from 'vitest';
import { numberIn, productOf } from '../src/scraping/offer-fields';
import { isPriceChange } from '../src/store/product-store';

describe('a scraped card read into a product', () => {
  const card = (fields: Record<string, string | null>, link: string | null = 'https://market.example/offers/G1') => ({ fields, link, text: 'the card' });

  it('reads numbers as sites print them, and nothing where there is none', () => {
    expect(numberIn('$1,234.50')).toBe(1234.5);
    expect(numberIn('99.5%')).toBe(99.5);
    expect(numberIn('12,345 sold')).toBe(12345);
    expect(numberIn('Level 7')).toBe(7);
    expect(numberIn('free')).toBeNull();
    expect(numberIn(null)).toBeNull();
  });

  it('makes a product of a card with its game, name and price, keyed by its link (or its names without one)', () => {
    const product = productOf(card({ gameName: ' Genshin  Impact ', productName: 'Genesis Crystals', priceUsd: '4.999', variationValue: '60', sellerName: 'Kai', sellerLevel: '12', orderSuccessRate: '99.5%', totalSales: '1,204', ratingSpeed: '4.8' }));
    expect(product).toMatchObject({ gameName: 'Genshin  Impact', productName: 'Genesis Crystals', priceUsd: 5, variationValue: '60', sellerLevel: 12, orderSuccessRate: 99.5, totalSales: 1204, ratingSpeed: 4.8, offerKey: 'https://market.example/offers/G1', sourceUrl: 'https://market.example/offers/G1' });
    expect(productOf(card({ gameName: 'G', productName: 'P', priceUsd: '1', variationValue: 'V', sellerName: 'S' }, null))?.offerKey).toBe('G | P | V | S');
    // A link that is not the web's is not kept.
    expect(productOf(card({ gameName: 'G', productName: 'P', priceUsd: '1' }, 'javascript:alert(1)'))?.sourceUrl).toBeNull();
  });

  it('never stores half a product: no game, no name, or no price above 0 is no product; out-of-range details are left empty', () => {
    expect(productOf(card({ gameName: null, productName: 'P', priceUsd: '1' }))).toBeNull();
    expect(productOf(card({ gameName: 'G', productName: '', priceUsd: '1' }))).toBeNull();
    expect(productOf(card({ gameName: 'G', productName: 'P', priceUsd: '' }))).toBeNull();
    expect(productOf(card({ gameName: 'G', productName: 'P', priceUsd: '0.00' }))).toBeNull();
    expect(productOf(card({ gameName: 'G', productName: 'P', priceUsd: '1', orderSuccessRate: '250%', ratingService: '-3' }))).toMatchObject({ orderSuccessRate: null, ratingService: null });
  });
});

describe('a price change worth flagging (changedetection.io-style threshold)', () => {
  it('flags any change at a threshold of 0, and past the threshold otherwise', () => {
    expect(isPriceChange(10, 10, 0)).toBe(false);
    expect(isPriceChange(10, 10.01, 0)).toBe(true);
    expect(isPriceChange(10, 10.5, 5)).toBe(false);
    expect(isPriceChange(10, 10.51, 5)).toBe(true);
    expect(isPriceChange(10, 9.4, 5)).toBe(true);
  });
});
