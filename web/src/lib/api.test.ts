import { describe, expect, it } from 'vitest';
import { ApiError, errorText, statusOf } from './api';

describe('errorText', () => {
  it("shows the server's error field", () => {
    expect(errorText(new ApiError(400, JSON.stringify({ error: 'productName is required', details: [] })), 'Failed to Add Mapping')).toBe('productName is required');
  });

  it("falls back to the spec's default when the answer has no error field, is not JSON, or never came", () => {
    expect(errorText(new ApiError(500, JSON.stringify({ message: 'boom' })), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
    expect(errorText(new ApiError(502, '<html>Bad Gateway</html>'), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
    expect(errorText(new TypeError('Failed to fetch'), 'Failed to update Google Sheets')).toBe('Failed to update Google Sheets');
  });

  it("keeps the spec's message shape '{status}: {body}'", () => {
    const error = new ApiError(401, 'Unauthorized');
    expect(error.message).toBe('401: Unauthorized');
    expect(statusOf(error)).toBe(401);
    expect(statusOf(new Error('401: not an ApiError'))).toBeNull();
  });
});
