/** A translation of an English catalogue: every key present (the compiler checks the shape, a unit test the contents). */
export type Translation<English> = { readonly [Key in keyof English]: string };
