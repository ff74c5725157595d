import { mn as auth } from '../features/auth/texts.mn';
import { mn as overview } from '../features/overview/texts.mn';
import { mn as common } from './common-texts.mn';

/** What the shell, sign-in and the first screen (the overview) show: one chunk per language, fetched before the first render. */
export const mn = { ...common, ...auth, ...overview };
