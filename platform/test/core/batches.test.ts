import { describe, expect, it } from 'vitest';
import { chunks, groupBy } from '@bo/platform/batches';

describe('batches', () => {
  it('chunks items in order, the last part shorter, and refuses a size below 1', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 100)).toEqual([]);
    expect(chunks([1, 2], 100)).toEqual([[1, 2]]);
    expect(() => chunks([1], 0)).toThrow(/at least 1/);
  });

  it('groups items by key, groups in the order their first item came, items in order', () => {
    const grouped = groupBy([{ p: 2, v: 'a' }, { p: 1, v: 'b' }, { p: 2, v: 'c' }, { p: null, v: 'd' }], (item) => item.p);
    expect([...grouped.keys()]).toEqual([2, 1, null]);
    expect(grouped.get(2)!.map((item) => item.v)).toEqual(['a', 'c']);
  });
});
