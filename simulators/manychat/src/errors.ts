/** ManyChat's error envelope: {status:"error", message, details, code?} (code only on sendContent). */
export class ManyChatError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly code?: number,
  ) {
    super(message);
  }

  toBody() {
    return { status: 'error', message: this.message, details: this.details, ...(this.code !== undefined ? { code: this.code } : {}) };
  }
}

export const validationError = (messages: string[]) => new ManyChatError('Validation error', { messages });
export const subscriberMissing = (id: unknown) => new ManyChatError(`Subscriber does not exist`, { messages: [`Subscriber with id ${String(id)} does not exist`] });
