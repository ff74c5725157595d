/** Google's error shape: {"error":{"code","message","status","details"}}. */
export class GoogleApiError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
  }

  toBody() {
    return { error: { code: this.code, message: this.message, status: this.status, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const invalidArgument = (message: string) => new GoogleApiError(400, 'INVALID_ARGUMENT', message);

export const errorInfo = (reason: string, metadata: Record<string, string> = {}) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'googleapis.com',
  metadata: { service: 'sheets.googleapis.com', ...metadata },
});
