/** WordPress REST error envelope: `{"code","message","data":{"status",…}}`. */
export class WooError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toBody() {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

/** 400 rest_invalid_param listing every bad parameter, like WordPress' argument validation. */
export function invalidParams(params: Record<string, string>): WooError {
  const details = Object.fromEntries(Object.entries(params).map(([key, message]) => [key, { code: 'rest_invalid_type', message, data: null }]));
  return new WooError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params, details });
}

export const invalidId = (postType: 'product' | 'product_variation' | 'shop_order') => new WooError(404, `woocommerce_rest_${postType}_invalid_id`, 'Invalid ID.');
