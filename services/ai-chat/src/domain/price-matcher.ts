/**
 * Finds the products a chat message asks about, with no AI (issue 21): customers write product
 * names in English or Mongolian, in Cyrillic or in Latin letters, with small typos, and wrap them
 * in "how much is …" or "… үнэ хэд вэ". Every word is brought to one spelling (Cyrillic read as
 * Latin, look-alike letters merged, synonyms such as "сар" and "month" made one word), then the
 * message's words are matched against each product's, allowing an edit or two in longer words.
 */

const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'yo', ж: 'j', з: 'z', и: 'i', й: 'i', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', ө: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ү: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'sh', ъ: '', ы: 'i', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** Latin spellings that sound alike in both alphabets (x and кс, kh and х, y and и…) made one. */
const SOUND_ALIKE: [RegExp, string][] = [
  [/kh/g, 'h'], [/x/g, 'ks'], [/ck/g, 'k'], [/ph/g, 'f'], [/c/g, 'k'], [/q/g, 'k'], [/w/g, 'v'], [/ou/g, 'u'], [/y/g, 'i'], [/(.)\1+/g, '$1'],
];

/** A word in the shared spelling: Cyrillic read as Latin, then look-alike spellings merged. */
function spell(word: string): string {
  let latin = '';
  for (const character of word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()) latin += CYRILLIC_TO_LATIN[character] ?? character;
  return SOUND_ALIKE.reduce((spelled, [pattern, replacement]) => spelled.replace(pattern, replacement), latin);
}

/** Words that mean the same thing in a product name, in either language, as they are written. */
const SYNONYMS = new Map(
  Object.entries({
    month: ['сар', 'сарын', 'sar', 'saryn', 'month', 'months', 'mon', 'mo', 'm'],
    year: ['жил', 'жилийн', 'jil', 'year', 'years', 'yr'],
    diamond: ['diamond', 'diamonds', 'алмаз', 'almaz'],
  }).flatMap(([meaning, written]) => written.map((word) => [spell(word), meaning] as const)),
);

/** One word of a message or product name, in the shared spelling. */
export function normalizeWord(word: string): string {
  if (/^\d+$/.test(word)) return word;
  const spelled = spell(word);
  return SYNONYMS.get(spelled) ?? spelled;
}

const spellAll = (words: string[]) => new Set(words.map(normalizeWord));
/** Words that say "price" in either language: with one, a message is a price question. */
const PRICE_WORDS = spellAll(['price', 'prices', 'cost', 'costs', 'much', 'үнэ', 'үнэтэй', 'үнийг', 'une', 'unetei', 'хэд', 'hed', 'хэдэн', 'heden']);
/** Words that say "I want to buy" in either language: with one, a message starts a purchase. */
const BUY_WORDS = spellAll(['buy', 'purchase', 'order', 'want', 'авах', 'авъя', 'авмаар', 'авна', 'захиалах', 'захиалъя', 'avah', 'avya', 'avmaar', 'avna', 'zahialah']);
/** Words of the question around a product name, never part of one. */
const FILLER_WORDS = new Set([
  ...PRICE_WORDS,
  ...BUY_WORDS,
  ...spellAll([
    'how', 'is', 'are', 'the', 'of', 'for', 'what', 'whats', 's', 'a', 'an', 'me', 'tell', 'please', 'pls', 'plz', 'do', 'you', 'have', 'there', 'hi', 'hello', 'hey',
    'вэ', 'бэ', 've', 'be', 'ямар', 'yamar', 'нь', 'ni', 'байна', 'baina', 'bn', 'уу', 'үү', 'юу', 'uu', 'сайн', 'sain', 'төгрөг', 'tugrug', 'mnt', 'ийм', 'энэ', 'ene',
  ]),
]);

/** A text's words in the shared spelling: letters and digits apart ("660uc" is 660 and uc), punctuation dropped. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}+|\d+/gu) ?? []).map(normalizeWord).filter((word) => word !== '');
}

/** Levenshtein distance, stopping early once it is past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowBest = Math.min(rowBest, current[j]);
    }
    if (rowBest > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/** How far a word may be misspelt: none in short words, one in 4–5 letters, two from 6. */
const typoAllowance = (word: string) => (word.length >= 6 ? 2 : word.length >= 4 ? 1 : 0);

/** How well a message's word fits a product's word: 1 the same, 0.8 a typo away, 0.7 a beginning of 3+ letters, else 0. */
function wordFit(asked: string, known: string): number {
  if (asked === known) return 1;
  const isNumber = /^\d+$/.test(asked) || /^\d+$/.test(known);
  if (isNumber) return 0;
  const allowance = typoAllowance(known);
  if (allowance > 0 && editDistance(asked, known, allowance) <= allowance) return 0.8;
  if (asked.length >= 3 && known.startsWith(asked)) return 0.7;
  return 0;
}

/** A product as the matcher holds it: its words worked out once. */
export interface MatchableProduct<T> {
  item: T;
  words: string[];
  numbers: string[];
}

export function matchable<T>(item: T, name: string): MatchableProduct<T> {
  const words = wordsOf(name);
  return { item, words: words.filter((word) => !/^\d+$/.test(word)), numbers: words.filter((word) => /^\d+$/.test(word)) };
}

export interface PriceQuestion<T> {
  /** Whether the message says "price" in some way (else it is only a price question if it is all product name). */
  asksPrice: boolean;
  /** Whether the message asks to buy ("buy netflix 1 month", "нетфликс 1 сар авъя"). */
  asksToBuy: boolean;
  /** The best-fitting products, best first; empty when no product is named. */
  matches: T[];
  /** Whether every word of the message (beside the question's own) belongs to the products found. */
  wholeMessageIsProduct: boolean;
}

/** Words that name no product by themselves ("1 month", "premium" alone match half the list). */
const GENERIC_WORDS = spellAll(['month', 'year', 'premium', 'standard', 'mobile', 'diamond', 'uc']);

/**
 * The products `text` names. A product fits when every number of the message is in its name and
 * its words cover the message's distinctive words best; all products that fit equally well are
 * answered (so "netflix" lists every Netflix plan, "netflix 3 сар" only the 3-month one). When the
 * message's numbers fit none of them ("pubg 600 uc"), the family is answered without them.
 */
export function findPriceQuestion<T>(text: string, products: readonly MatchableProduct<T>[]): PriceQuestion<T> {
  const all = wordsOf(text);
  const asksPrice = all.some((word) => PRICE_WORDS.has(word));
  const asksToBuy = all.some((word) => BUY_WORDS.has(word));
  const words = all.filter((word) => !FILLER_WORDS.has(word));
  const numbers = words.filter((word) => /^\d+$/.test(word));
  const named = words.filter((word) => !/^\d+$/.test(word));
  const distinctive = named.filter((word) => !GENERIC_WORDS.has(word));
  if (distinctive.length === 0) return { asksPrice, asksToBuy, matches: [], wholeMessageIsProduct: false };

  const scored = products
    .map((product) => {
      const fits = named.map((word) => Math.max(0, ...product.words.map((known) => wordFit(word, known))));
      const distinctiveFit = named.reduce((sum, word, index) => sum + (GENERIC_WORDS.has(word) ? 0 : fits[index]), 0);
      return {
        product,
        distinctiveFit,
        total: fits.reduce((sum, fit) => sum + fit, 0),
        covered: fits.every((fit) => fit > 0),
        numbersFit: numbers.every((number) => product.numbers.includes(number)),
        extraWords: product.words.length - fits.filter((fit) => fit > 0).length,
      };
    })
    .filter((entry) => entry.distinctiveFit > 0);
  const withNumbers = scored.filter((entry) => entry.numbersFit);
  const pool = withNumbers.length > 0 ? withNumbers : scored;
  if (pool.length === 0) return { asksPrice, asksToBuy, matches: [], wholeMessageIsProduct: false };

  const best = Math.max(...pool.map((entry) => entry.total));
  const top = pool.filter((entry) => entry.total >= best - 1e-9).sort((a, b) => a.extraWords - b.extraWords);
  return {
    asksPrice,
    asksToBuy,
    matches: top.map((entry) => entry.product.item),
    wholeMessageIsProduct: withNumbers.length > 0 && top.some((entry) => entry.covered),
  };
}
