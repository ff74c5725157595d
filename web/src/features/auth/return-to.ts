/**
 * Where to go after signing in. The password form reads `?next=` of /login; the OpenID Connect
 * round trip leaves the app (the provider sends the browser back to '/'), so the page is kept in
 * sessionStorage for that one tab until the app is back and signed in.
 */
const STORAGE_KEY = 'bo.returnTo';

/** Only a path of this site: '/x', never '//host' or 'https://host' (an open redirect). */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === '/login' || value.startsWith('/login?') || value.startsWith('/api/')) return null;
  return value;
}

/** '/login', or '/login?next=…' when the user was somewhere other than the start page. */
export function loginPathFor(from: string): string {
  const path = safeReturnPath(from);
  return path && path !== '/' ? `/login?next=${encodeURIComponent(path)}` : '/login';
}

export function rememberReturnPath(path: string | null): void {
  if (path) sessionStorage.setItem(STORAGE_KEY, path);
  else forgetReturnPath();
}

export function readReturnPath(): string | null {
  return safeReturnPath(sessionStorage.getItem(STORAGE_KEY));
}

/** Forgotten once the user is back there (or signed in another way). */
export function forgetReturnPath(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
