/** Numbers, dates and tugrik amounts for the chosen language (Intl; the locale is the language code). */
export interface Formatters {
  number(value: number): string;
  dateTime(value: Date | string | number): string;
  /** Whole tugriks with the ₮ sign, grouped as the locale groups digits. */
  tugrik(value: number): string;
}

const cache = new Map<string, Formatters>();

export function formatters(locale: string): Formatters {
  let found = cache.get(locale);
  if (!found) {
    const number = new Intl.NumberFormat(locale);
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const tugrik = new Intl.NumberFormat(locale, { style: 'currency', currency: 'MNT', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 });
    found = {
      number: (value) => number.format(value),
      dateTime: (value) => dateTime.format(new Date(value)),
      tugrik: (value) => tugrik.format(value),
    };
    cache.set(locale, found);
  }
  return found;
}

/** A sheet cell holding a plain amount ('45000', '45000.00') as a number; anything else stays text. */
export function amountOf(cell: string): number | null {
  const trimmed = cell.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}
