import { en as auth } from '../features/auth/texts.en';
import { en as overview } from '../features/overview/texts.en';
import { en as common } from './common-texts.en';

/** What the shell, sign-in and the first screen (the overview) show: one chunk per language, fetched before the first render. */
export const en = { ...common, ...auth, ...overview };
