import { describe, expect, it } from 'vitest';
import { loginPathFor, safeReturnPath } from './return-to';

describe('the page to return to after sign-in', () => {
  it('keeps paths of this site with their query', () => {
    expect(safeReturnPath('/?section=sheets')).toBe('/?section=sheets');
    expect(safeReturnPath('/woocommerce')).toBe('/woocommerce');
  });

  it('refuses other sites, the login page itself and API paths', () => {
    for (const value of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', '/login', '/login?next=/x', '/api/logout', '', null]) {
      expect(safeReturnPath(value)).toBeNull();
    }
  });

  it("names the page in /login's next parameter, except the start page", () => {
    expect(loginPathFor('/?section=sheets')).toBe('/login?next=%2F%3Fsection%3Dsheets');
    expect(loginPathFor('/')).toBe('/login');
  });
});
