import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { credentialsOf, loginFailureLines } from './login';

describe('credentialsOf', () => {
  it('strips every space from both before sending', () => {
    expect(credentialsOf(' nfx.account1 @example.mn ', ' SK-7Q2M 4P9X3K-NFX\n')).toEqual({ email: 'nfx.account1@example.mn', key: 'SK-7Q2M4P9X3K-NFX' });
  });

  it('needs both, and spaces alone are nothing', () => {
    expect(credentialsOf('', 'SK-7Q2M4P9X3K-NFX')).toBeNull();
    expect(credentialsOf('a@example.mn', '   ')).toBeNull();
  });
});

describe('loginFailureLines', () => {
  it("shows the server's message", () => {
    expect(loginFailureLines(new ApiError(429, JSON.stringify({ error: 'Too many sign-in attempts. Try again in 15 minutes.' })))).toEqual([
      'Too many sign-in attempts. Try again in 15 minutes.',
    ]);
  });

  it("without one, 'Invalid email or key' in English and Mongolian", () => {
    const both = ['Invalid email or key', 'Имэйл эсвэл түлхүүр буруу байна'];
    expect(loginFailureLines(new ApiError(502, '<html>Bad Gateway</html>'))).toEqual(both);
    expect(loginFailureLines(new TypeError('Failed to fetch'))).toEqual(both);
    // The server's own 'Invalid email or key' gets its Mongolian line too.
    expect(loginFailureLines(new ApiError(401, JSON.stringify({ error: 'Invalid email or key' })))).toEqual(both);
  });
});
