/**
 * Document 3 §8: a refused customer sign-in reads 'Invalid email or key' in both languages whatever
 * the page's language (login.ts). Kept apart from the catalogues so the sign-in page does not fetch
 * the other language's whole catalogue for one line; both catalogues take their text from here.
 */
export const invalidLogin = { en: 'Invalid email or key', mn: 'Имэйл эсвэл түлхүүр буруу байна' } as const;
