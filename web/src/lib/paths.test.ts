import { describe, expect, it } from 'vitest';
import { apiPath, queryString } from './paths';

describe('apiPath', () => {
  it('encodes a product name holding a slash, a question mark and spaces as one path segment', () => {
    const path = apiPath('/api/woocommerce/mappings/:productName', { productName: 'Netflix 1/2 month? Premium' });
    expect(path).toBe('/api/woocommerce/mappings/Netflix%201%2F2%20month%3F%20Premium');
    expect(decodeURIComponent(path.split('/').at(-1)!)).toBe('Netflix 1/2 month? Premium');
    expect(new URL(path, 'http://x').pathname.split('/')).toHaveLength(5);
  });

  it('encodes Mongolian text as UTF-8', () => {
    expect(apiPath('/api/prices/:product', { product: 'Нетфликс 1 сар' })).toBe(
      '/api/prices/%D0%9D%D0%B5%D1%82%D1%84%D0%BB%D0%B8%D0%BA%D1%81%201%20%D1%81%D0%B0%D1%80',
    );
  });

  it('fills several parameters and appends a query string', () => {
    expect(apiPath('/api/streaming-keys/available-profiles/:email/:service', { email: 'a&b@example.mn', service: 2 }, { limit: 10, q: 'Нетфликс #1' })).toBe(
      '/api/streaming-keys/available-profiles/a%26b%40example.mn/2?limit=10&q=%D0%9D%D0%B5%D1%82%D1%84%D0%BB%D0%B8%D0%BA%D1%81%20%231',
    );
  });

  it('refuses a missing parameter rather than sending a request to the wrong path', () => {
    expect(() => apiPath('/api/prices/:product', { product: '' })).toThrow(/:product/);
  });
});

describe('queryString', () => {
  it('leaves out empty values, repeats arrays and encodes reserved characters', () => {
    expect(queryString({ a: 'x y', b: undefined, c: null, d: ['1', 2], e: false, f: 'a=b&c?d/e' })).toBe('?a=x%20y&d=1&d=2&e=false&f=a%3Db%26c%3Fd%2Fe');
  });

  it('is empty when nothing is left', () => {
    expect(queryString({})).toBe('');
    expect(queryString({ a: undefined })).toBe('');
  });
});
