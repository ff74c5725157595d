/** What the page's forms accept, read from what the operator typed (pure: input.test.ts). */
import type { OrderSearch } from './api';

/** The add form's id: digits only, a positive 32-bit integer (the contract's limit). */
export function shopIdOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The order search's one field: an e-mail when it holds '@', else a phone number. Null while it is neither. */
export function orderSearchOf(text: string): OrderSearch | null {
  const trimmed = text.trim();
  if (trimmed.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? { email: trimmed } : null;
  return /^\+?[\d\s-]{6,20}$/.test(trimmed) ? { phone: trimmed } : null;
}
