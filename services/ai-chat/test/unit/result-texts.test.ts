import { allowedCodeTypes, blockedCodeTypes, codeTypes, parseOutcomes } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../../src/domain/result-texts';

const cyrillic = /[А-Яа-яӨөҮүЁё]/;
const latinWords = (s: string) => s.replace(/Netflix Household|Netflix|Disney\+|Amazon Prime Video|Prime Video|HBO Max|Max|Hulu|ТВ/g, '').match(/[A-Za-z]{3,}/g) ?? [];

describe('describeOutcome', () => {
  it('says something in English and in Mongolian for every outcome of every code type', () => {
    for (const outcome of parseOutcomes) {
      for (const type of allowedCodeTypes) {
        for (const blocked of outcome === 'blocked' ? [...blockedCodeTypes, null] : [null]) {
          const { reason, message_mn } = describeOutcome(outcome, type, blocked);
          const label = `${outcome} ${type} ${blocked}`;
          expect(reason, label).toMatch(/^[A-Z].{10,}/);
          expect(cyrillic.test(reason), label).toBe(false);
          expect(message_mn, label).toMatch(cyrillic);
          expect(latinWords(message_mn), label).toEqual([]);
        }
      }
    }
  });

  it("opens the empty results with the product's texts: 'No code found' for codes, 'No links found' for links and the TV pair, 'No recent emails found'", () => {
    for (const type of allowedCodeTypes) {
      const notFound = describeOutcome('not_found', type, null);
      expect(notFound.reason.startsWith(codeTypes[type].yields === 'code' ? 'No code found' : 'No links found'), type).toBe(true);
      expect(notFound.message_mn.startsWith(codeTypes[type].yields === 'code' ? 'Код олдсонгүй' : 'Холбоос олдсонгүй'), type).toBe(true);
      const none = describeOutcome('no_recent_emails', type, null);
      expect(none.reason.startsWith('No recent emails found'), type).toBe(true);
      expect(none.reason).toContain('15 minutes');
      expect(none.message_mn).toContain('15 минут');
    }
  });

  it('names the service the customer asked about', () => {
    expect(describeOutcome('not_found', 'DP_OTP', null).reason).toContain('Disney+');
    expect(describeOutcome('no_recent_emails', 'HLU_OTP', null).message_mn).toContain('Hulu');
    expect(describeOutcome('unavailable', 'NFX_TV_SIGN_IN_LINK', null).reason).toContain('Netflix');
    expect(describeOutcome('found', 'AMZ_OTP', null).reason).toContain('Prime Video');
  });

  it("matches the contract's example for a sign-in code found", () => {
    expect(describeOutcome('found', 'NFX_SIGN_IN_CODE', null)).toEqual({ reason: 'Sign-in code found', message_mn: 'Нэвтрэх код олдлоо' });
  });

  it('names each blocked kind and says it is never shared, whatever type was asked', () => {
    expect(describeOutcome('blocked', 'NFX_SIGN_IN_CODE', 'PASSWORD_RESET')).toEqual({
      reason: 'Password reset e-mails are never shared. Contact the shop if the password needs changing.',
      message_mn: 'Нууц үг сэргээх имэйлийг хэзээ ч хуваалцдаггүй. Нууц үг солих шаардлагатай бол дэлгүүртэй холбогдоно уу.',
    });
    const names = { PASSWORD_RESET: ['Password reset', 'Нууц үг сэргээх'], SECURITY_VERIFICATION_CODE: ['Account-security verification', 'аюулгүй байдлын'], EMAIL_CHANGE_VERIFICATION: ['E-mail change', 'Имэйл хаяг солих'] };
    for (const kind of blockedCodeTypes) {
      for (const type of allowedCodeTypes) {
        const { reason, message_mn } = describeOutcome('blocked', type, kind);
        expect(reason.startsWith(names[kind][0]), `${kind} ${type}`).toBe(true);
        expect(reason).toContain('never shared');
        expect(message_mn).toContain(names[kind][1]);
        expect(message_mn).toContain('хэзээ ч хуваалцдаггүй');
      }
    }
    expect(describeOutcome('blocked', 'DP_OTP', null).reason).toContain('never shared');
  });

  it('gives different texts to different outcomes of the same type', () => {
    for (const type of allowedCodeTypes) {
      const reasons = parseOutcomes.map((outcome) => describeOutcome(outcome, type, outcome === 'blocked' ? 'PASSWORD_RESET' : null).message_mn);
      expect(new Set(reasons).size, type).toBe(parseOutcomes.length);
    }
  });
});
