import { errorText } from '../../lib/api';
import type { CustomerCredentials } from './api';
import { stripSpaces } from './service';
import { invalidLogin } from './invalid-login';

/** Document 3 §5: both stripped of every space; null when either is then empty ('Please enter your email and key'). */
export function credentialsOf(email: string, key: string): CustomerCredentials | null {
  const credentials = { email: stripSpaces(email), key: stripSpaces(key) };
  return credentials.email && credentials.key ? credentials : null;
}

/**
 * Document 3 §8: the server's message, else 'Invalid email or key' in both languages whatever the
 * page's language (the Mongolian line under the English one), as the product has always shown it.
 */
export function loginFailureLines(error: unknown): string[] {
  const invalid = invalidLogin.en;
  const message = errorText(error, invalid);
  return message === invalid ? [invalid, invalidLogin.mn] : [message];
}
