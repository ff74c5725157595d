import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiExchange, errorText, forgetCsrfToken, RedirectNotFollowed, statusOf } from './api';

describe('errorText', () => {
  it("shows the server's error field", () => {
    expect(errorText(new ApiError(400, JSON.stringify({ error: 'productName is required', details: [] })), 'Failed to Add Mapping')).toBe('productName is required');
  });

  it("falls back to the spec's default when the answer has no error field, is not JSON, or never came", () => {
    expect(errorText(new ApiError(500, JSON.stringify({ message: 'boom' })), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
    expect(errorText(new ApiError(502, '<html>Bad Gateway</html>'), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
    expect(errorText(new TypeError('Failed to fetch'), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
  });

  it("keeps the spec's message shape '{status}: {body}'", () => {
    const error = new ApiError(401, 'Unauthorized');
    expect(error.message).toBe('401: Unauthorized');
    expect(statusOf(error)).toBe(401);
    expect(statusOf(new Error('401: not an ApiError'))).toBeNull();
  });
});

describe('apiExchange', () => {
  const calls: { path: string; init: RequestInit }[] = [];
  /** What fetch answers, as far as lib/api.ts reads it. */
  const answer = ({ text = '', status = 200, ...rest }: { text?: string; status?: number; type?: ResponseType; headers?: Headers }) => ({
    ok: status >= 200 && status < 300,
    status,
    type: 'basic' as ResponseType,
    statusText: '',
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => text,
    json: async () => JSON.parse(text || 'null') as unknown,
    ...rest,
  });
  const serve = (reply: (path: string, init: RequestInit) => ReturnType<typeof answer>) => {
    calls.length = 0;
    forgetCsrfToken();
    vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
      calls.push({ path, init });
      return path === '/api/auth/csrf' ? answer({ text: JSON.stringify({ token: 'csrf-1' }) }) : reply(path, init);
    });
  };
  afterEach(() => vi.unstubAllGlobals());

  it('answers the status with the body, and sends a write with the session and its CSRF token', async () => {
    serve(() => answer({ status: 201, text: JSON.stringify({ success: true }) }));
    expect(await apiExchange('POST', '/api/cache/invalidate', { all: true })).toEqual({ status: 201, body: { success: true } });
    const sent = calls.find((call) => call.path === '/api/cache/invalidate')!;
    expect(sent.init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"all":true}', headers: { 'Content-Type': 'application/json', 'x-csrf-token': 'csrf-1' } });
    expect(sent.init.redirect).toBeUndefined();
  });

  it('sends a GET without a body or token, and reads a text answer as text', async () => {
    serve(() => answer({ text: 'ok', headers: new Headers({ 'content-type': 'text/plain' }) }));
    expect(await apiExchange('GET', '/health', { ignored: true })).toEqual({ status: 200, body: 'ok' });
    expect(calls).toHaveLength(1);
    expect(calls[0].init).toMatchObject({ method: 'GET', headers: {}, body: undefined });
  });

  it('throws an ApiError carrying the status for a non-OK answer', async () => {
    serve(() => answer({ status: 404, text: '{"error":"Not found"}' }));
    await expect(apiExchange('GET', '/api/nothing')).rejects.toMatchObject({ name: 'ApiError', status: 404, message: '404: {"error":"Not found"}' });
  });

  it('does not follow a redirect when asked not to, and says so', async () => {
    serve(() => answer({ status: 0, type: 'opaqueredirect' }));
    await expect(apiExchange('GET', '/api/login', undefined, { followRedirects: false })).rejects.toBeInstanceOf(RedirectNotFollowed);
    expect(calls[0].init.redirect).toBe('manual');
  });
});
