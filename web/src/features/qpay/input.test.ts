import { describe, expect, it } from 'vitest';
import { tugrikOf } from './input';

describe('tugrikOf', () => {
  it.each([
    ['35000', 35_000],
    ['35,000', 35_000],
    [' 35 000 ', 35_000],
    ['₮35,000', 35_000],
    ['100000000', 100_000_000],
  ])('reads %j as %d', (text, amount) => {
    expect(tugrikOf(text)).toBe(amount);
  });

  it.each(['', '0', '-5', '35000.50', '3.5e4', 'abc', '100000001'])('refuses %j', (text) => {
    expect(tugrikOf(text)).toBeNull();
  });
});
