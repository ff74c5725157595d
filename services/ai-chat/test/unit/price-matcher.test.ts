import { describe, expect, it } from 'vitest';
import { findPriceQuestion, matchable, normalizeWord } from '../../src/domain/price-matcher';

// Names as the Google Sheets simulator seeds them (simulators/google-sheets/src/price-list.ts).
const names = [
  'Netflix Premium - 1 сар', 'Netflix Premium - 3 сар', 'Netflix Premium - 6 сар', 'Netflix Standard 1 сар',
  'Spotify Premium - 1 сар', 'Spotify Premium - 3 сар', 'YouTube Premium 1 сар', 'Disney+ 1 сар', 'HBO Max 1 сар',
  'PUBG Mobile UC - 60 UC', 'PUBG Mobile UC - 325 UC', 'PUBG Mobile UC - 660 UC', 'PUBG Mobile UC - 1800 UC',
  'Mobile Legends 86 diamonds', 'Steam Wallet $20', 'Free Fire 520 Diamonds',
];
const products = names.map((name) => matchable(name, name));
const ask = (text: string) => findPriceQuestion(text, products);

describe('findPriceQuestion', () => {
  it('answers a product named in English, with the question around it', () => {
    const found = ask('how much is netflix premium 3 months?');
    expect(found).toMatchObject({ asksPrice: true, matches: ['Netflix Premium - 3 сар'], wholeMessageIsProduct: true });
  });

  it('answers the Mongolian form, in Cyrillic and in Latin letters', () => {
    expect(ask('нетфликс премиум 6 сар үнэ хэд вэ').matches).toEqual(['Netflix Premium - 6 сар']);
    expect(ask('netflix premium 6 sar une hed ve').matches).toEqual(['Netflix Premium - 6 сар']);
    expect(ask('спотифай 1 сар хэд вэ').matches).toEqual(['Spotify Premium - 1 сар']);
    expect(ask('хбо макс үнэ').matches).toEqual(['HBO Max 1 сар']);
  });

  it('forgives a small typo in a longer word', () => {
    expect(ask('netflx premum 1 month price').matches).toEqual(['Netflix Premium - 1 сар']);
    expect(ask('spotfy 3 months').matches).toEqual(['Spotify Premium - 3 сар']);
  });

  it('lists every plan of a product asked without a plan, the closest names first', () => {
    const found = ask('netflix une hed ve');
    expect(found.matches).toEqual(expect.arrayContaining(['Netflix Premium - 1 сар', 'Netflix Premium - 3 сар', 'Netflix Premium - 6 сар', 'Netflix Standard 1 сар']));
    expect(found.matches).toHaveLength(4);
  });

  it('keeps numbers exact: 660 UC is not 60 UC, and an unknown pack lists the family', () => {
    expect(ask('pubg 660 uc').matches).toEqual(['PUBG Mobile UC - 660 UC']);
    expect(ask('pubg 60 uc').matches).toEqual(['PUBG Mobile UC - 60 UC']);
    const unknown = ask('pubg 600 uc hed ve');
    expect(unknown.matches).toHaveLength(4);
    expect(unknown.wholeMessageIsProduct).toBe(false);
  });

  it('tells a product name alone from a question about something else', () => {
    expect(ask('netflix premium 1 сар')).toMatchObject({ asksPrice: false, wholeMessageIsProduct: true });
    expect(ask('does netflix work on my tv').wholeMessageIsProduct).toBe(false);
  });

  it('finds nothing where no product is named', () => {
    expect(ask('сайн байна уу').matches).toEqual([]);
    expect(ask('1 month price').matches).toEqual([]);
    expect(ask('').matches).toEqual([]);
  });

  it('spells Cyrillic and Latin alike', () => {
    expect(normalizeWord('Нетфликс')).toBe(normalizeWord('Netflix'));
    expect(normalizeWord('сар')).toBe(normalizeWord('months'));
    expect(normalizeWord('Дисней')).toBe(normalizeWord('disney'));
  });
});
