import { en, type MessageKey } from './en';
import { mn } from './mn';

export type { MessageKey };
export type Language = 'en' | 'mn';

const catalogues: Record<Language, Partial<Record<MessageKey, string>>> = { en, mn };

/** English until the later language switch stores 'mn' under this key. */
const language: Language = globalThis.localStorage?.getItem('bo.language') === 'mn' ? 'mn' : 'en';

/** Every user-visible text goes through here; `{name}` placeholders are filled from `values`. */
export function t(key: MessageKey, values?: Record<string, string | number>): string {
  const text = catalogues[language][key] ?? en[key];
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export const currentLanguage = language;
