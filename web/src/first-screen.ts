import type { AuthUser } from './features/auth/api';
import { authUserQuery } from './features/auth/queries';
import { prefetchOverview } from './features/overview/queries';
import { loadTexts, shellBundles } from './i18n';
import { createQueryClient } from './lib/query-client';
import { sectionIn } from './shell/sections';

/**
 * What the first screen waits on, started while the rest of the app's code is still being
 * evaluated (main.tsx imports this module first), all at once instead of each after the one before
 * has rendered: the shell's texts in the language in use; and on '/' the session check and, as soon
 * as it says admin, the overview's calls. `ready` is what the first render waits for: the texts.
 */
export const queryClient = createQueryClient();

const texts = loadTexts(...shellBundles);
if (window.location.pathname === '/') {
  const overview = sectionIn(new URLSearchParams(window.location.search)) === 'overview';
  void queryClient.prefetchQuery(authUserQuery).then(() => {
    if (overview && queryClient.getQueryData<AuthUser>(authUserQuery.queryKey)?.isAdmin) prefetchOverview(queryClient);
  });
}

export const ready: Promise<void> = texts.catch((error: unknown) => {
  // Rendered all the same: a blank page would say even less.
  console.error('the texts could not be fetched', error);
});
