import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { formatters, type Formatters } from '../lib/format';
import { languages, shellBundles, textBundles, type Language, type TextBundle } from './bundles';
import type { MessageKey } from './catalogue';

export { languages, shellBundles, type Language, type MessageKey, type TextBundle };

const STORAGE_KEY = 'bo.language';

function storedLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  return (languages as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'en';
}

function markDocument(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * i18next with the catalogue fetched in parts (bundles.ts): the language in use only, each page's
 * texts with the page (loadTexts). Keys are flat ('sheets.col.type'), placeholders are `{name}`, and
 * `{count, number}` formats with Intl for the current language. Plural forms follow
 * Intl.PluralRules ('_one' / '_other'). Both languages hold every key (catalogue.test.ts), so
 * there is nothing to fall back on.
 */
void i18next.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: false,
  supportedLngs: [...languages],
  resources: {},
  partialBundledLanguages: true,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
  initAsync: false,
});
markDocument(i18next.language);
i18next.on('languageChanged', markDocument);

export const i18n = i18next;

export function currentLanguage(): Language {
  return (languages as readonly string[]).includes(i18next.language) ? (i18next.language as Language) : 'en';
}

/** Every part some screen has asked for: a language switch fetches them all in the new language first. */
const asked = new Set<TextBundle>();
/** Each part in each language is fetched once (a failed fetch is tried again the next time it is asked for). */
const fetched = new Map<string, Promise<void>>();
/** The language a switch in progress goes to (the current one otherwise). */
let target: Language = currentLanguage();

function fetchTexts(language: Language, bundle: TextBundle): Promise<void> {
  const key = `${language}/${bundle}`;
  let done = fetched.get(key);
  if (!done) {
    done = textBundles[bundle][language]().then((texts) => void i18next.addResourceBundle(language, 'translation', texts, true, true));
    done.catch(() => fetched.delete(key));
    fetched.set(key, done);
  }
  return done;
}

/**
 * Fetches these parts of the catalogue in the language in use (and in the one a switch is going
 * to), each once; resolves when they can be shown.
 */
export async function loadTexts(...bundles: readonly TextBundle[]): Promise<void> {
  for (const bundle of bundles) asked.add(bundle);
  const wanted = new Set([currentLanguage(), target]);
  await Promise.all([...wanted].flatMap((language) => bundles.map((bundle) => fetchTexts(language, bundle))));
}

/**
 * Switches every screen at once, as soon as the texts on screen have arrived in that language, and
 * remembers the choice for the next visit. If they cannot be fetched, the language stays as it was.
 */
export async function setLanguage(language: Language): Promise<void> {
  const before = target;
  target = language;
  try {
    await Promise.all([...asked].map((bundle) => fetchTexts(language, bundle)));
  } catch (error) {
    if (target === language) target = before;
    throw error;
  }
  if (target !== language) return; // another switch came after this one
  globalThis.localStorage?.setItem(STORAGE_KEY, language);
  await i18next.changeLanguage(language);
}

/** The texts and the number, date and ₮ formatters of the current language; re-renders when it changes. */
export function useTexts(): { t: (key: MessageKey, values?: Record<string, unknown>) => string; format: Formatters; language: Language } {
  const { t, i18n: instance } = useTranslation();
  const language = (languages as readonly string[]).includes(instance.language) ? (instance.language as Language) : 'en';
  return { t: t as (key: MessageKey, values?: Record<string, unknown>) => string, format: formatters(language), language };
}
