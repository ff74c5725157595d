import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { formatters, type Formatters } from '../lib/format';
import { catalogues, languages, type Language, type MessageKey } from './catalogue';

export { languages, type Language, type MessageKey };

const STORAGE_KEY = 'bo.language';

function storedLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  return (languages as readonly string[]).includes(stored ?? '') ? (stored as Language) : 'en';
}

function markDocument(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * i18next with both catalogues bundled (a few KB; no loading flash). Keys are flat ('sheets.col.type'),
 * placeholders are `{name}`, and `{count, number}` formats with Intl for the current language.
 * Plural forms follow Intl.PluralRules ('_one' / '_other').
 */
void i18next.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...languages],
  resources: Object.fromEntries(languages.map((language) => [language, { translation: catalogues[language] }])),
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  returnNull: false,
  initAsync: false,
});
markDocument(i18next.language);
i18next.on('languageChanged', markDocument);

export const i18n = i18next;

/** Switches every screen at once and remembers the choice for the next visit. */
export function setLanguage(language: Language): void {
  globalThis.localStorage?.setItem(STORAGE_KEY, language);
  void i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return (languages as readonly string[]).includes(i18next.language) ? (i18next.language as Language) : 'en';
}

/** The texts and the number, date and ₮ formatters of the current language; re-renders when it changes. */
export function useTexts(): { t: (key: MessageKey, values?: Record<string, unknown>) => string; format: Formatters; language: Language } {
  const { t, i18n: instance } = useTranslation();
  const language = (languages as readonly string[]).includes(instance.language) ? (instance.language as Language) : 'en';
  return { t: t as (key: MessageKey, values?: Record<string, unknown>) => string, format: formatters(language), language };
}
