/**
 * Files the browser saves: one the server sends as an attachment (fetched with the session, so a
 * failure is an ApiError the page can show instead of a broken download), or one the page made.
 */
import { ApiError, csrfTokenFor } from './api';

export interface DownloadedFile {
  blob: Blob;
  /** The name the server's Content-Disposition gives; null when it gives none. */
  fileName: string | null;
}

/**
 * GET `path` with the session cookie, or POST `body` (an export that takes a passphrase) with the
 * CSRF token too; a non-OK answer throws an ApiError ('{status}: {body}') as every call does.
 */
export async function apiDownload(path: string, body?: unknown): Promise<DownloadedFile> {
  const post = (token: string) => fetch(path, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify(body) });
  let response = body === undefined ? await fetch(path, { credentials: 'include' }) : await post(await csrfTokenFor());
  // A 403 may mean the token belongs to an older session (as apiExchange does): once more with a fresh one.
  if (body !== undefined && response.status === 403) response = await post(await csrfTokenFor(true));
  if (!response.ok) throw new ApiError(response.status, (await response.text()) || response.statusText);
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/**
 * The file name of a Content-Disposition header: RFC 6266's `filename*=UTF-8''…` first, else
 * `filename="…"` (or unquoted); only its last path segment. Null when there is none.
 */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*[\w!#$%&+^`{}~-]*'[^']*'([^;\s]+)/i.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]);
    } catch {
      name = null; // a malformed encoding: the plain parameter, if any, instead
    }
  }
  if (name === null) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
    name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2] ?? null) : null;
  }
  const last = name?.split(/[\\/]/).pop()?.trim();
  return last ? last : null;
}

/** How long a saved file's object URL is kept, so the browser has read it (FileSaver.js waits as long). */
const KEEP_OBJECT_URL_MS = 40_000;

/** Hands the file to the browser's downloads under this name: a link to the blob, clicked. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_OBJECT_URL_MS);
}
