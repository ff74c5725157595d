import { describe, expect, it } from 'vitest';
import { catalogues, en, languages } from './catalogue';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)[^}]*\}/g)].map((match) => match[1]).sort();
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

describe('catalogues', () => {
  it.each(languages)('%s has a non-empty text for every English key, with the same placeholders', (language) => {
    const catalogue: Record<string, string> = catalogues[language];
    const missing = Object.keys(en).filter((key) => typeof catalogue[key] !== 'string' || catalogue[key].trim() === '');
    expect(missing).toEqual([]);
    const mismatched = Object.entries(en)
      .filter(([key, text]) => placeholders(catalogue[key] ?? '').join() !== placeholders(text).join())
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
    expect(Object.keys(catalogue).filter((key) => !(key in en))).toEqual([]);
  });

  it.each(languages)('%s has every plural form its plural rules use', (language) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const bases = new Set(Object.keys(en).filter((key) => pluralSuffix.test(key)).map((key) => key.replace(pluralSuffix, '')));
    expect(bases.size).toBeGreaterThan(0);
    const catalogue: Record<string, string> = catalogues[language];
    const missing = [...bases].flatMap((base) => categories.map((category) => `${base}_${category}`)).filter((key) => !catalogue[key]);
    expect(missing).toEqual([]);
  });
});
