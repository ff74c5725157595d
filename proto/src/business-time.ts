/**
 * The business's calendar. The shop and its customers are in Mongolia: a key's month, "today" and
 * every date or time a customer or an admin reads are Ulaanbaatar's, whatever zone a process runs in.
 */
export const BUSINESS_TIME_ZONE = 'Asia/Ulaanbaatar';

/** A wall-clock time in the business's zone; month 1–12. */
export interface BusinessTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** What a clock in Ulaanbaatar shows at `at`. */
export function businessTimeOf(at: Date): BusinessTime {
  const parts: Record<string, number> = {};
  for (const part of wallClock.formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const millisecond = ((at.getTime() % 1000) + 1000) % 1000;
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second!, millisecond };
}

/** How far Ulaanbaatar's clock is ahead of UTC at `instant` (ms). */
function offsetAt(instant: number): number {
  const time = businessTimeOf(new Date(instant));
  return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second, time.millisecond) - instant;
}

/**
 * The instant a clock in Ulaanbaatar shows `time` (two passes, so an offset that changed between
 * the guess and the answer is taken into account; Ulaanbaatar has kept UTC+8 all year since 2017).
 */
export function businessInstant(time: BusinessTime): Date {
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second, time.millisecond);
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}

/** Days in a month of the calendar (month 1–12). */
export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * `months` calendar months after `from` in Ulaanbaatar, at the same time of day: a day the month
 * does not have becomes its last (31 January + 1 month is 28 or 29 February). What a customer who
 * bought "1 month" on a day expects, wherever the server runs.
 */
export function addBusinessMonths(from: Date, months: number): Date {
  const time = businessTimeOf(from);
  const index = time.year * 12 + (time.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return businessInstant({ ...time, year, month, day: Math.min(time.day, daysInMonth(year, month)) });
}

/** Midnight starting the business's day that holds `at`. */
export function startOfBusinessDay(at: Date): Date {
  return businessInstant({ ...businessTimeOf(at), hour: 0, minute: 0, second: 0, millisecond: 0 });
}

/** `2026-12-07`: the business's date at `at`. */
export function businessDate(at: Date): string {
  const { year, month, day } = businessTimeOf(at);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
