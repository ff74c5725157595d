/**
 * What a log table keeps of a request or response body. Log tables fed by anonymous requests (the
 * bank's callbacks, the chat webhook, the request log) must not let one caller store megabytes per
 * row, and PostgreSQL refuses U+0000 in text and JSON, so a hostile body could fail the very write
 * that records it. Every such writer goes through these two helpers.
 */
export const LOG_BODY_MAX_BYTES = 8 * 1024;

/** A JSON escape `\u0000` that is not itself an escaped backslash followed by "u0000". */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** A string cut to `maxBytes` of UTF-8 (never inside a character), NUL shown as U+FFFD. */
export function logText(text: string, maxBytes: number = LOG_BODY_MAX_BYTES): string {
  const clean = text.replaceAll('\u0000', '\uFFFD');
  return Buffer.byteLength(clean) <= maxBytes ? clean : cutToFit(clean, maxBytes, (cut) => Buffer.byteLength(cut));
}

/**
 * A body as a log row keeps it: the value itself when its JSON is at most 8 KiB (U+0000 replaced
 * by U+FFFD), else its JSON text cut so that, stored as a JSON string, it is at most 8 KiB, and
 * marked `…[truncated: N bytes]`. Either is valid JSON for a jsonb column. `undefined` stays
 * undefined (no body).
 */
export function logBody(value: unknown, maxBytes: number = LOG_BODY_MAX_BYTES): unknown {
  if (value === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // a cycle or a BigInt: kept as its text
  }
  const asString = (cut: string) => Buffer.byteLength(JSON.stringify(cut));
  if (json === undefined) {
    const text = String(value).replaceAll('\u0000', '\uFFFD');
    return asString(text) <= maxBytes ? text : cutToFit(text, maxBytes, asString);
  }
  const clean = json.replace(ESCAPED_NUL, '$1\\ufffd');
  return Buffer.byteLength(clean) <= maxBytes ? JSON.parse(clean) : cutToFit(clean, maxBytes, asString);
}

/** The longest head of `text` that, with the truncation marker, measures at most `maxBytes`. */
function cutToFit(text: string, maxBytes: number, measure: (cut: string) => number): string {
  const marker = ` …[truncated: ${Buffer.byteLength(text)} bytes]`;
  const withMarker = (chars: number) => {
    // Never end on the first half of a surrogate pair.
    const code = text.charCodeAt(chars - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars) + marker;
  };
  let low = 0;
  let high = Math.min(text.length, maxBytes);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (measure(withMarker(middle)) <= maxBytes) low = middle;
    else high = middle - 1;
  }
  return withMarker(low);
}
