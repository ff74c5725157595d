import { describe, expect, it } from 'vitest';
import { listOrEmpty } from './api';

describe('listOrEmpty', () => {
  it('keeps a list reply as it came', () => {
    const reply = { data: [{ invoiceId: 'INV-AAAAAAAAAA' }, { invoiceId: 'INV-BBBBBBBBBB' }] };
    expect(listOrEmpty(reply)).toEqual(reply);
  });

  it.each([
    ['an HTML page (the text a non-JSON answer reads as)', '<!doctype html><html><body><div id="root"></div></body></html>'],
    ['an empty body', ''],
    ['null (a 204)', null],
    ['an object without a list', { error: 'nope' }],
    ['a data field that is not a list', { data: '<html>' }],
  ])('reads %s as an empty list', (_what, reply) => {
    expect(listOrEmpty(reply)).toEqual({ data: [] });
  });
});
