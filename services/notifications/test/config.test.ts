import { describe, expect, it } from 'vitest';
import { identityEnv } from '@bo/platform/testing/identity';
import { loadNotificationsConfig } from '../src/config';

const base = { ...identityEnv('notifications'), STREAMING_KEYS_URL: 'http://127.0.0.1:5104' };

describe('notifications configuration', () => {
  it('runs the expiry check hourly unless EXPIRY_CHECK_CRON says otherwise, and refuses a bad expression at start', () => {
    const defaults = loadNotificationsConfig(base);
    expect(defaults).toMatchObject({ EXPIRY_CHECK_CRON: '0 * * * *', MANYCHAT_API_URL: 'https://api.manychat.com' });
    expect(defaults.MANYCHAT_API_TOKEN).toBeUndefined();
    expect(loadNotificationsConfig({ ...base, EXPIRY_CHECK_CRON: '*/15 * * * *' }).EXPIRY_CHECK_CRON).toBe('*/15 * * * *');
    expect(() => loadNotificationsConfig({ ...base, EXPIRY_CHECK_CRON: 'hourly' })).toThrow('EXPIRY_CHECK_CRON is invalid: must be a cron expression such as "0 * * * *"');
    expect(() => loadNotificationsConfig({ ...identityEnv('notifications') })).toThrow('STREAMING_KEYS_URL is required');
  });
});
