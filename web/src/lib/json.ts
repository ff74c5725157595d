export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

/** A text an editor holds as JSON, or why it is not (the parser's own words: they name the position). */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
