import { CHAT_WEBHOOK_SECRET_HEADER, chatPaymentWebhook, chatWebhook, qpayCallbackLegacy } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { CHAT_SECRET_HEADER, dataKeyItems, inboundPaths, publicAddress, type ConfigStatusItem } from './api';

describe('the inbound webhooks the page lists', () => {
  it('are the contracts\' paths and header', () => {
    expect(inboundPaths).toEqual({ chatMessages: chatWebhook.path, chatPayment: chatPaymentWebhook.path, qpayCallback: qpayCallbackLegacy.path });
    expect(CHAT_SECRET_HEADER.toLowerCase()).toBe(CHAT_WEBHOOK_SECRET_HEADER);
    // Public doors: outside systems call them without a session.
    for (const route of [chatWebhook, chatPaymentWebhook, qpayCallbackLegacy]) expect(route.access).toBe('public');
  });

  it('get their full address on the origin payments builds its own webhook address on', () => {
    const settings = { webhookUrl: 'https://shop.example.mn/api/qpay/webhook', webhookPath: '/api/qpay/webhook' };
    expect(publicAddress(settings, '/api/manychat/webhook')).toBe('https://shop.example.mn/api/manychat/webhook');
    expect(publicAddress({ ...settings, webhookUrl: 'https://shop.example.mn/base/api/qpay/webhook' }, '/api/manychat/webhook')).toBe('https://shop.example.mn/base/api/manychat/webhook');
    // An address that is not built that way: the path alone rather than a wrong address.
    expect(publicAddress({ ...settings, webhookUrl: 'https://elsewhere.example.mn/hook' }, '/api/manychat/webhook')).toBe('/api/manychat/webhook');
  });
});

describe('dataKeyItems', () => {
  it('keeps the items that carry a data key, in their order', () => {
    const items: ConfigStatusItem[] = [
      { name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: true, service: 'pricing' },
      { name: 'Data encryption key (QPay client secret, chat webhook secret)', category: 'Bank payments', configured: true, simulated: false, service: 'payments', dataKey: { id: '3f9c2a71', oldKeys: 0 } },
      { name: 'Data encryption key (account passwords)', category: 'Streaming keys', configured: true, simulated: false, service: 'streaming-keys', dataKey: { id: '3f9c2a71', oldKeys: 1 } },
    ];
    expect(dataKeyItems(items).map((item) => [item.service, item.dataKey])).toEqual([['payments', { id: '3f9c2a71', oldKeys: 0 }], ['streaming-keys', { id: '3f9c2a71', oldKeys: 1 }]]);
  });
});
