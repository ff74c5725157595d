import { amountOf, type Formatters } from '../../lib/format';

/** A shop or sheet price as the page shows it: '₮35,000' for an amount, the text as it is otherwise, '—' when empty. */
export function shownPrice(format: Formatters, price: string | null | undefined): string {
  if (price === null || price === undefined || price.trim() === '') return '—';
  const amount = amountOf(price);
  return amount === null ? price : format.tugrik(amount);
}
