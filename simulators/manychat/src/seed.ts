import type { CustomField, Flow, Page, Subscriber, Tag, UtilityTemplate } from './state';

export interface SeedData {
  page: Page;
  flows: Flow[];
  folders: { id: number; name: string }[];
  tags: Tag[];
  fields: CustomField[];
  subscribers: Subscriber[];
  /** Utility templates the page has approved (none when absent). */
  templates?: UtilityTemplate[];
}

const HOUR = 60 * 60 * 1000;

function subscriber(id: string, first: string, last: string, hoursSinceInteraction: number, extra: Partial<Subscriber> = {}): Subscriber {
  const lastInteraction = new Date(Date.now() - hoursSinceInteraction * HOUR).toISOString();
  return {
    id,
    channel: 'messenger',
    status: 'active',
    first_name: first,
    last_name: last,
    gender: 'male',
    profile_pic: `https://example.invalid/avatars/${id}.png`,
    locale: 'mn_MN',
    language: 'Mongolian',
    timezone: 'UTC+08',
    last_input_text: '',
    subscribed: new Date(Date.now() - 90 * 24 * HOUR).toISOString(),
    last_interaction: lastInteraction,
    last_seen: lastInteraction,
    phone: null,
    email: null,
    ig_username: null,
    fields: {},
    tagIds: [],
    ...extra,
  };
}

/**
 * A small shop bot: times are relative to "now" when the seed is built, so some subscribers are
 * inside the 24 h window and some outside.
 */
export function seedData(): SeedData {
  return {
    page: {
      id: '1000001',
      name: 'Stream Keys Shop',
      category: 'Shopping & retail',
      avatar_link: 'https://example.invalid/page.png',
      username: 'streamkeysshop',
      about: 'Streaming subscriptions and game items',
      description: 'Simulated ManyChat page',
      is_pro: true,
      timezone: 'Asia/Ulaanbaatar',
    },
    folders: [{ id: 1, name: 'Sales' }],
    flows: [
      { ns: 'content20240101000000_000001', name: 'Welcome', folder_id: 0 },
      { ns: 'content20240101000000_000002', name: 'Renewal reminder', folder_id: 1 },
      { ns: 'content20240101000000_000003', name: 'Payment received', folder_id: 1 },
    ],
    tags: [
      { id: 1, name: 'customer' },
      { id: 2, name: 'netflix' },
      { id: 3, name: 'vip' },
      { id: 4, name: 'needs_human' },
    ],
    fields: [
      { id: 11, name: 'email', type: 'text', description: 'Customer email' },
      { id: 12, name: 'last_order_amount', type: 'number', description: 'MNT' },
      { id: 13, name: 'expires_on', type: 'date', description: 'Subscription end' },
      { id: 14, name: 'paid_at', type: 'datetime', description: 'Last payment time' },
      { id: 15, name: 'is_subscribed', type: 'boolean', description: 'Has an active key' },
      { id: 16, name: 'ai_reply', type: 'text', description: 'Last AI answer' },
      // What the payment flow's External Request sends (custom fields travel as text).
      { id: 17, name: 'invoice_code', type: 'text', description: 'Product to pay for, e.g. NFX-1M' },
      { id: 18, name: 'invoice_id', type: 'text', description: 'Order reference of the chat' },
      { id: 19, name: 'amount', type: 'text', description: 'Price asked, MNT' },
    ],
    subscribers: [
      subscriber('9000001', 'Bat', 'Erdene', 1, {
        email: 'bat@example.com',
        phone: '+97699112233',
        fields: { 11: 'bat@example.com', 12: 35000, 15: true },
        tagIds: [1, 2],
      }),
      subscriber('9000002', 'Saraa', 'Dorj', 30, {
        gender: 'female',
        email: 'saraa@example.com',
        fields: { 11: 'saraa@example.com', 13: '2024-12-31' },
        tagIds: [1],
        user_ref: 'ref-saraa-1',
      }),
      subscriber('9000003', 'Tuul', 'Gan', 24 * 10, { gender: 'female', tagIds: [] }),
      subscriber('9000004', 'Temuulen', 'Bold', 2, { channel: 'instagram', ig_username: 'temuulen.b' }),
      subscriber('9000005', 'Anu', 'Batbayar', 3, { channel: 'whatsapp', phone: '+97688001122', gender: 'female' }),
    ],
    // Approved for the page, so a name set on /manychat-admin has something to match in a demo.
    templates: [{ name: 'key_delivery' }, { name: 'payment_confirmation' }, { name: 'renewal_reminder' }, { name: 'key_extension' }, { name: 'alert' }],
  };
}
