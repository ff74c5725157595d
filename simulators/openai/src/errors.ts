/** OpenAI's error body {"error":{message,type,param,code}} with its HTTP status. */
export class OpenAiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message);
  }

  toBody() {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new OpenAiError(400, message, 'invalid_request_error', code, param);

export const modelNotFound = (model: string) =>
  new OpenAiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', 'model');

export const invalidUrl = (method: string, url: string) => new OpenAiError(404, `Invalid URL (${method} ${url})`, 'invalid_request_error');

/** Ready-made failures for /__sim/errors; each becomes a kit fault rule with OpenAI's body. */
export const errorPresets = {
  rate_limit: () =>
    new OpenAiError(429, 'Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded'),
  insufficient_quota: () =>
    new OpenAiError(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'),
  server_error: () => new OpenAiError(500, 'The server had an error while processing your request. Sorry about that!', 'server_error'),
  overloaded: () => new OpenAiError(503, 'The engine is currently overloaded, please try again later.', 'server_error', 'overloaded'),
} as const;
export type ErrorPreset = keyof typeof errorPresets;
