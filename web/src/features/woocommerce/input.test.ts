import { describe, expect, it } from 'vitest';
import { orderSearchOf, shopIdOf } from './input';

describe('shopIdOf', () => {
  it('reads a positive whole number, spaces around it allowed', () => {
    expect(shopIdOf('102')).toBe(102);
    expect(shopIdOf(' 7 ')).toBe(7);
    expect(shopIdOf('2147483647')).toBe(2_147_483_647);
  });

  it('refuses anything Save must not send', () => {
    for (const text of ['', '  ', '0', '-3', '1.5', '1e3', '12a', '0x1F', '2147483648']) expect(shopIdOf(text)).toBeNull();
  });
});

describe('orderSearchOf', () => {
  it('takes text with @ as an e-mail and anything else as a phone number', () => {
    expect(orderSearchOf(' bat.erdene@example.mn ')).toEqual({ email: 'bat.erdene@example.mn' });
    expect(orderSearchOf('99112233')).toEqual({ phone: '99112233' });
    expect(orderSearchOf('+976 9911-2233')).toEqual({ phone: '+976 9911-2233' });
  });

  it('is null while the text is neither', () => {
    for (const text of ['', 'bat@', 'bat@example', '12345', 'Бат-Эрдэнэ']) expect(orderSearchOf(text)).toBeNull();
  });
});
