import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@bo/platform';
import { serviceMain } from '@bo/platform/scripts/service-paths';
import { identityEnv } from '@bo/platform/testing/identity';
import { loadPaymentsConfig } from '../src/config';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Everything payments needs but the webhook secret. */
const base = {
  PORT: '0',
  ...identityEnv('payments'),
  DATA_ENCRYPTION_KEY: 'config-test-data-encryption-key-32-chars!',
  STREAMING_KEYS_URL: 'http://127.0.0.1:5104',
  PRICING_URL: 'http://127.0.0.1:5101',
};

const problemsWith = (secret: string | undefined): string[] => {
  try {
    loadPaymentsConfig({ ...base, ...(secret === undefined ? {} : { QPAY_WEBHOOK_SECRET: secret }) });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

/** Issue 18 §1: the chat webhook secret is required everywhere; an example's placeholder or a short one is refused. */
describe('payments refuses to start without a real chat webhook secret', () => {
  it('refuses no secret, an empty one, a placeholder, and one shorter than 32 characters, each with one line naming QPAY_WEBHOOK_SECRET', () => {
    expect(problemsWith(undefined)).toEqual(['QPAY_WEBHOOK_SECRET is required (must be set to 32 or more random characters)']);
    expect(problemsWith('')).toEqual(['QPAY_WEBHOOK_SECRET is required (must be at least 32 characters)']);
    expect(problemsWith('change-me')).toEqual(['QPAY_WEBHOOK_SECRET is invalid: must be at least 32 characters']);
    expect(problemsWith('Xk9q2Lm7Vb3Nc8Rt')).toEqual(['QPAY_WEBHOOK_SECRET is invalid: must be at least 32 characters']);
    for (const placeholder of ['change-me-change-me-change-me-change-me', 'replace-with-the-secret-header-of-the-chat-flow', 'a'.repeat(40)]) {
      expect(problemsWith(placeholder), placeholder).toEqual(['QPAY_WEBHOOK_SECRET is invalid: is a placeholder: set it to 32 or more random characters']);
    }
    expect(problemsWith('0f8e2c4a9b7d6e5f1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b')).toEqual([]);
  });

  it('stops the service process at start with that line and exit code 1, before it connects to anything', async () => {
    const started = await promisify(execFile)(process.execPath, ['--import', 'tsx', serviceMain('payments')], {
      cwd: root,
      env: { PATH: process.env.PATH, ...base, QPAY_WEBHOOK_SECRET: 'change-me' },
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('  - QPAY_WEBHOOK_SECRET is invalid: must be at least 32 characters');
  });
});
