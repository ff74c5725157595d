import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { apiDownload, fileNameOf } from './download';

describe('fileNameOf', () => {
  it("reads the gateway's quoted file name", () => {
    expect(fileNameOf('attachment; filename="database-export-2026-11-27.json"')).toBe('database-export-2026-11-27.json');
  });

  it('reads an unquoted name, an escaped quote, and prefers the encoded filename*', () => {
    expect(fileNameOf('attachment; filename=report.csv')).toBe('report.csv');
    expect(fileNameOf('attachment; filename="a \\"b\\".json"')).toBe('a "b".json');
    expect(fileNameOf(`attachment; filename="fallback.json"; filename*=UTF-8''%D0%B1%D0%B0%D0%B7%D0%B0.json`)).toBe('база.json');
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A.json; filename="plain.json"`)).toBe('plain.json');
  });

  it('keeps only the last path segment, and is null without a name', () => {
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf('attachment; filename=""')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});

describe('apiDownload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fetches with the session and answers the content and the name', async () => {
    const fetched: { path: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (path: string, init: RequestInit) => {
      fetched.push({ path, init });
      return new Response('{"data":{}}', { headers: { 'content-disposition': 'attachment; filename="database-export-2026-11-27.json"' } });
    });
    const file = await apiDownload('/api/migration/export');
    expect(file.fileName).toBe('database-export-2026-11-27.json');
    expect(await file.blob.text()).toBe('{"data":{}}');
    expect(fetched).toEqual([{ path: '/api/migration/export', init: { credentials: 'include' } }]);
  });

  it("throws an ApiError '{status}: {body}' on a non-OK answer", async () => {
    vi.stubGlobal('fetch', async () => new Response('{"error":"pricing did not answer"}', { status: 502 }));
    const error = await apiDownload('/api/migration/export').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('502: {"error":"pricing did not answer"}');
  });
});
