/** Splitting work into the batches outside systems take (WooCommerce's 100 a request, shop-sync's listings a call). */

/** `items` in order, `size` at a time (the last part may be shorter). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`a chunk holds at least 1 item, not ${size}`);
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}

/** `items` grouped by `keyOf`, the groups in the order their first item came, each in its items' order. */
export function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
