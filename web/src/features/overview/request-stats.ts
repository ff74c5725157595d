import type { RequestLogEntry } from './api';

/** Mean of the logged response times ('12ms' strings), shown as '{n}ms'; '0ms' when none parse. */
export function averageResponseTime(entries: readonly RequestLogEntry[]): string {
  const times = entries.map((entry) => Number.parseFloat(entry.responseTime)).filter(Number.isFinite);
  if (times.length === 0) return '0ms';
  return `${Math.round(times.reduce((sum, time) => sum + time, 0) / times.length)}ms`;
}
