import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_STEP } from '../src/chat-flow';
import { startEmbedded, type EmbeddedSystem } from '../src/launcher';
import { loadOrCreateSecrets } from '../src/secrets';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Exchange {
  status: number | null;
  outcome: 'delivered' | 'failed';
  request: { url: string; headers: Record<string, string>; body: string };
  reply?: { content: { messages: { text: string }[] } };
}

/**
 * Issue 18 §1 in the embedded run (make start): payments starts with the secret generated into
 * data/secrets.json, and the ManyChat simulator's External Request (the chat flow's payment step)
 * reaches the webhook through the gateway with payments' current secret, after a Rotate too.
 */
describe("the embedded run's chat flow reaches the payment webhook with the current secret", () => {
  let dataDir: string;
  let system: EmbeddedSystem;
  let manychat: string;
  let admin: { cookie: string; csrf: string };

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  /** A subscriber taps "pay" for a product: the flow sets its custom fields, then runs the External Request. */
  const chatPays = async (reference: string): Promise<Exchange> => {
    await post(`${manychat}/__sim/subscribers`, [{ id: '9000001', fields: { 17: 'PUBG Mobile UC - 660 UC', 18: reference, 19: '38000' } }]);
    return (await (await post(`${manychat}/__sim/driver/send`, { subscriberId: '9000001', text: 'pay', step: PAYMENT_STEP })).json()) as Exchange;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'chat-flow-'));
    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    manychat = system.simulators.manychat!.url;
    // An administrator the way an operator makes one (make create-admin), signed in with a CSRF token.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'deploy/embedded/src/with-database.ts', process.execPath, '--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', 'ops', '--password', 'a long enough password'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      timeout: 60_000,
    });
    const login = await post(`${system.url}/api/admin/login`, { username: 'ops', password: 'a long enough password' });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const csrf = ((await (await fetch(`${system.url}/api/auth/csrf`, { headers: { cookie } })).json()) as { token: string }).token;
    admin = { cookie, csrf };
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends the secret payments started with (data/secrets.json), and the webhook answers the payment link', async () => {
    const { qpayWebhookSecret } = await loadOrCreateSecrets(dataDir);
    expect(qpayWebhookSecret).toMatch(/^[\w-]{43}$/); // 32 random bytes, base64url
    const exchange = await chatPays('MC-EMB-1');
    expect(exchange.request.url).toBe(`${system.url}/api/qpay/webhook`);
    expect(exchange.request.headers['X-Webhook-Secret']).toBe(qpayWebhookSecret);
    expect(exchange).toMatchObject({ status: 200, outcome: 'delivered' });
    expect(exchange.reply!.content.messages[0].text).toContain('PUBG Mobile UC - 660 UC — 38,000₮');
  });

  it('sends the new secret after an admin rotates it on /qpay, and the old one no longer opens the webhook', async () => {
    const { qpayWebhookSecret: old } = await loadOrCreateSecrets(dataDir);
    const rotated = await fetch(`${system.url}/api/qpay/webhook-secret/rotate`, { method: 'POST', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf } });
    expect(rotated.status).toBe(200);
    const copied = await fetch(`${system.url}/api/qpay/webhook-secret/reveal`, { method: 'POST', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf } });
    const { secret } = (await copied.json()) as { secret: string };
    expect(secret).not.toBe(old);

    const exchange = await chatPays('MC-EMB-2');
    expect(exchange.request.headers['X-Webhook-Secret']).toBe(secret);
    expect(exchange).toMatchObject({ status: 200, outcome: 'delivered' });

    const withOld = await post(`${system.url}/api/qpay/webhook`, { user_id: '9000001', custom_fields: { invoice_code: 'PUBG Mobile UC - 660 UC', invoice_id: 'MC-EMB-3', amount: '38000' } }, { 'x-webhook-secret': old });
    expect(withOld.status).toBe(401);
  });
});
