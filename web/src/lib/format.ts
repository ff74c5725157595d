/** Numbers, dates and tugrik amounts for the chosen language (Intl; the locale is the language code). */
export interface Formatters {
  number(value: number): string;
  dateTime(value: Date | string | number): string;
  /** The hour of a time, as the locale writes a clock time ('1:00 PM', '13:00'). */
  hour(value: Date | string | number): string;
  /** Whole tugriks with the ₮ sign, grouped as the locale groups digits. */
  tugrik(value: number): string;
}

const cache = new Map<string, Formatters>();
const tugrikOptions = { style: 'currency', currency: 'MNT', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 } as const;

/** Whether this runtime's Intl carries data for the locale (Chromium builds ship a reduced set without Mongolian). */
export const hasLocaleData = (locale: string) =>
  Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 && Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0;

/**
 * Asked once per locale: supportedLocalesOf is slow enough to show when every component with texts
 * asks on every render (about 20 ms of the dashboard's first screen).
 */
const localeData = new Map<string, boolean>();
function hasLocaleDataOnce(locale: string): boolean {
  let found = localeData.get(locale);
  if (found === undefined) localeData.set(locale, (found = hasLocaleData(locale)));
  return found;
}

export function formatters(locale: string, intlHasLocale = hasLocaleDataOnce(locale)): Formatters {
  const cacheKey = `${locale}:${intlHasLocale}`;
  let found = cache.get(cacheKey);
  if (!found) {
    found = locale === 'mn' && !intlHasLocale ? mongolianFromCldrPatterns() : intlFormatters(locale);
    cache.set(cacheKey, found);
  }
  return found;
}

function intlFormatters(locale: string): Formatters {
  const number = new Intl.NumberFormat(locale);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const tugrik = new Intl.NumberFormat(locale, tugrikOptions);
  const hour = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' });
  return {
    number: (value) => number.format(value),
    dateTime: (value) => dateTime.format(new Date(value)),
    hour: (value) => hour.format(new Date(value)),
    tugrik: (value) => tugrik.format(value),
  };
}

/**
 * Mongolian by CLDR's own patterns where Intl has no Mongolian data: the digits group like English
 * ('1,234.5'), amounts read '₮ 25,000' and dates '2026 оны 11-р сарын 23 08:05' — what Intl gives
 * where it has the data (format.test.ts checks both agree).
 */
function mongolianFromCldrPatterns(): Formatters {
  const number = new Intl.NumberFormat('en');
  const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
  const parts = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return {
    number: (value) => number.format(value),
    tugrik: (value) => `₮\u00a0${whole.format(value)}`,
    dateTime: (value) => {
      const part = Object.fromEntries(parts.formatToParts(new Date(value)).map(({ type, value: text }) => [type, text]));
      return `${part.year} оны ${part.month}-р сарын ${part.day} ${part.hour}:${part.minute}`;
    },
    hour: (value) => {
      const part = Object.fromEntries(parts.formatToParts(new Date(value)).map(({ type, value: text }) => [type, text]));
      return `${Number(part.hour)}:${part.minute}`;
    },
  };
}

/** A sheet cell holding a plain amount ('45000', '45000.00') as a number; anything else stays text. */
export function amountOf(cell: string): number | null {
  const trimmed = cell.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}
