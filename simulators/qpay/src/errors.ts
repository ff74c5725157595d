/** A QPay-shaped failure: the route throws it, the error handler sends `body` with `status`. */
export class QpayError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(JSON.stringify(body));
  }
}

/** `{"error":"<CODE>","message":"<text>"}` — QPay's usual error body. */
export const qpayError = (status: number, code: string, message: string) => new QpayError(status, { error: code, message });

/** Field validation nests an object: `{"error":{"page_limit":{"type":"MIN_NUMBER","message":"…"}}}`. */
export const fieldError = (field: string, type: string, message: string) => new QpayError(400, { error: { [field]: { type, message } } });
