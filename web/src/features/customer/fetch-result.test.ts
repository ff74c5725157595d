import type { ParseResult } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { cardViewOf, retryLaterOf, waitOf, type ParseEmailReply } from './fetch-result';

const base: ParseResult = {
  found: false, reason: '', message_mn: '', code: null, links: [], buttons: [], outcome: 'not_found', approvalLinks: [], denialLinks: [], blockedType: null, source: 'none',
};
const reply = (result: Partial<ParseResult>, data: ParseEmailReply['data'] = null): ParseEmailReply => ({ success: true, data, result: { ...base, ...result } });

describe('cardViewOf', () => {
  it('shows a found code', () => {
    expect(cardViewOf('code', reply({ found: true, outcome: 'found', code: '4821' }, '4821'))).toEqual({ kind: 'code', code: '4821' });
    // The data field alone is enough (document 3 §7's shape).
    expect(cardViewOf('code', reply({ found: true, outcome: 'found' }, '482193'))).toEqual({ kind: 'code', code: '482193' });
  });

  it("captions links from result.buttons when they name the link, and drops anything that is not https", () => {
    const get = 'https://www.netflix.com/account/travel/verify?nftoken=a';
    const other = 'https://www.netflix.com/browse';
    const view = cardViewOf('links', reply({ found: true, outcome: 'found', links: [get, other, 'http://www.netflix.com/x', 'javascript:alert(1)'], buttons: [{ caption: 'Get Code', url: get }] }));
    expect(view).toEqual({ kind: 'links', links: [{ url: get, caption: 'Get Code' }, { url: other, caption: null }] });
  });

  it('gives the TV card its approve and deny links apart', () => {
    const approve = 'https://www.netflix.com/account/tv-sign-in/approve?nftoken=t';
    const deny = 'https://www.netflix.com/account/tv-sign-in/deny?nftoken=t';
    expect(cardViewOf('tv', reply({ found: true, outcome: 'found', approvalLinks: [approve], denialLinks: [deny] }))).toEqual({ kind: 'tv', approve: [approve], deny: [deny] });
    expect(cardViewOf('tv', reply({ found: true, outcome: 'found' }, { approval: [approve], denial: [deny] }))).toEqual({ kind: 'tv', approve: [approve], deny: [deny] });
  });

  it('shows a refusal in Mongolian with the English reason as its helper text', () => {
    const view = cardViewOf('links', reply({ outcome: 'blocked', blockedType: 'PASSWORD_RESET', message_mn: 'Нууц үг сэргээх имэйлийг хуваалцахгүй', reason: 'Password reset e-mails are never shared' }));
    expect(view).toEqual({ kind: 'blocked', message: 'Нууц үг сэргээх имэйлийг хуваалцахгүй', reason: 'Password reset e-mails are never shared' });
  });

  it("says 'No code found', 'No links found' or 'No recent emails found'", () => {
    expect(cardViewOf('code', reply({ outcome: 'not_found' }))).toEqual({ kind: 'empty', text: 'noCode', detail: null });
    expect(cardViewOf('links', reply({ outcome: 'not_found' }))).toEqual({ kind: 'empty', text: 'noLinks', detail: null });
    expect(cardViewOf('tv', reply({ outcome: 'not_found' }))).toEqual({ kind: 'empty', text: 'noLinks', detail: null });
    expect(cardViewOf('code', reply({ outcome: 'no_recent_emails' }))).toEqual({ kind: 'empty', text: 'noRecent', detail: null });
    // Found, yet nothing usable in it: still empty, not a blank card.
    expect(cardViewOf('links', reply({ found: true, outcome: 'found', links: ['http://www.netflix.com/x'] }))).toEqual({ kind: 'empty', text: 'noLinks', detail: null });
  });

  it('says why when no AI answered', () => {
    expect(cardViewOf('code', reply({ outcome: 'unavailable', message_mn: 'Түр ажиллахгүй байна', reason: 'No AI provider answered' }))).toEqual({ kind: 'empty', text: 'noCode', detail: 'Түр ажиллахгүй байна' });
  });
});

describe('a click refused for now', () => {
  const refusal = (status: number, details: unknown) => new ApiError(status, JSON.stringify({ error: 'refused', details }));
  const at = '2026-11-23T08:05:00.000Z';

  it('reads when to try again from a 429 (this key, too soon) or a 503 (the mailbox paused), and nothing else', () => {
    expect(retryLaterOf(refusal(429, { retryAt: at }))).toEqual({ reason: 'tooSoon', at: new Date(at) });
    expect(retryLaterOf(refusal(503, { retryAt: at }))).toEqual({ reason: 'paused', at: new Date(at) });
    expect(retryLaterOf(refusal(503, undefined))).toBeNull();
    expect(retryLaterOf(refusal(403, { retryAt: at }))).toBeNull();
    expect(retryLaterOf(new ApiError(429, '<html>busy</html>'))).toBeNull();
    expect(retryLaterOf(new Error('network'))).toBeNull();
  });

  it('counts down in seconds up to a minute and a half, then names the clock time, then says now', () => {
    const now = new Date(at);
    expect(waitOf(new Date(now.getTime() + 24_200), now)).toEqual({ in: 25 });
    expect(waitOf(new Date(now.getTime() + 90_000), now)).toEqual({ in: 90 });
    const later = new Date(now.getTime() + 15 * 60_000);
    expect(waitOf(later, now)).toEqual({ at: later });
    expect(waitOf(now, now)).toBe('now');
  });
});
