import { ALLOWED_KINDS, BLOCKED_KINDS } from '@bo/sim-mailbox';
import { describe, expect, it } from 'vitest';
import { blockedLinkKind, classifyBlocked } from '../../src/domain/expressions';
import * as m from './mails';

describe('classifyBlocked: the kinds never shared', () => {
  it.each(BLOCKED_KINDS)("recognises the simulator's %s mail in every form it can arrive in", (kind) => {
    const { variants } = m.simMails(kind, '482913');
    for (const [variant, parserMail] of Object.entries(variants)) expect(classifyBlocked(parserMail), variant).toBe(kind);
  });

  it.each(ALLOWED_KINDS)("leaves the simulator's %s mail alone in every form", (kind) => {
    const { variants } = m.simMails(kind);
    for (const [variant, parserMail] of Object.entries(variants)) expect(classifyBlocked(parserMail), variant).toBeNull();
  });

  it('refuses password resets: by link, by code, in Spanish, Amazon by subject alone, and a mail whose only button leads to the password page', () => {
    expect(classifyBlocked(m.netflixPasswordResetHtml)).toBe('PASSWORD_RESET');
    expect(classifyBlocked({ ...m.netflixPasswordResetHtml, subject: '' })).toBe('PASSWORD_RESET');
    expect(classifyBlocked(m.netflixPasswordResetCode('5521'))).toBe('PASSWORD_RESET');
    expect(classifyBlocked({ ...m.netflixPasswordResetCode('5521'), subject: '' })).toBe('PASSWORD_RESET');
    expect(classifyBlocked(m.netflixResetSpanish)).toBe('PASSWORD_RESET');
    expect(classifyBlocked(m.huluReset)).toBe('PASSWORD_RESET');
    expect(classifyBlocked(m.amazonPasswordAssistance('538201'))).toBe('PASSWORD_RESET');
    expect(classifyBlocked(m.netflixBareResetLink)).toBe('PASSWORD_RESET');
  });

  it('refuses account-security verification codes, in English and German, and after unusual activity', () => {
    expect(classifyBlocked(m.netflixSecurityCode('834120'))).toBe('SECURITY_VERIFICATION_CODE');
    expect(classifyBlocked({ ...m.netflixSecurityCode('834120'), subject: '' })).toBe('SECURITY_VERIFICATION_CODE');
    expect(classifyBlocked(m.netflixSecurityGerman('834120'))).toBe('SECURITY_VERIFICATION_CODE');
    expect(classifyBlocked(m.maxUnusualActivity('332211'))).toBe('SECURITY_VERIFICATION_CODE');
  });

  it('refuses e-mail change verifications, by code and by link', () => {
    expect(classifyBlocked(m.maxNewEmailCode('118822'))).toBe('EMAIL_CHANGE_VERIFICATION');
    expect(classifyBlocked(m.amazonNewEmail('445566'))).toBe('EMAIL_CHANGE_VERIFICATION');
    expect(classifyBlocked(m.disneyEmailChangeLink)).toBe('EMAIL_CHANGE_VERIFICATION');
    expect(classifyBlocked({ ...m.disneyEmailChangeLink, html: '<p>Hi Anna.</p><p><a href="https://www.disneyplus.com/account/change-email/verify?token=zz">Continue</a></p>' })).toBe(
      'EMAIL_CHANGE_VERIFICATION',
    );
  });

  it('reads the header lines of a pasted mail like the rest of its text', () => {
    expect(classifyBlocked(m.mail({ text: 'From: Amazon <account-update@amazon.com>\nSubject: Amazon password assistance\n\nTo authenticate, use this OTP:\n\n538201' }))).toBe('PASSWORD_RESET');
  });

  describe('look-alike pairs: the allowed mail is not refused', () => {
    it('a Netflix sign-in code mail whose advice links to the password page, against a password-reset mail', () => {
      expect(classifyBlocked(m.netflixSignInHtml('7391'))).toBeNull();
      expect(classifyBlocked(m.netflixPasswordResetHtml)).toBe('PASSWORD_RESET');
    });

    it('a Disney+ passcode to log in (advice to reset the password included), against a Disney+ verification before an account change', () => {
      expect(classifyBlocked(m.disneyOtpHtml('481920'))).toBeNull();
      expect(classifyBlocked(m.disneyOtpSpanish('654321'))).toBeNull();
      expect(classifyBlocked(m.disneySecurityCode('481920'))).toBe('SECURITY_VERIFICATION_CODE');
    });

    it('a Max code to sign in ("for your account security, never share"), against a Max code for a new e-mail address', () => {
      expect(classifyBlocked(m.maxOtpHtml('772031'))).toBeNull();
      expect(classifyBlocked(m.maxNewEmailCode('772031'))).toBe('EMAIL_CHANGE_VERIFICATION');
    });

    it("an Amazon sign-in OTP (\"we'll never ask for your password\"), against the same body under the password-assistance subject", () => {
      expect(classifyBlocked(m.amazonOtp('538201'))).toBeNull();
      expect(classifyBlocked(m.primeVideoOtpHtml('538201'))).toBeNull();
      expect(classifyBlocked(m.amazonPasswordAssistance('538201'))).toBe('PASSWORD_RESET');
    });

    it('Netflix temporary access, household and TV mails, a Hulu code with "update your email preferences", Netflix in Spanish', () => {
      for (const allowed of [
        m.netflixTemporaryAccessHtml('t'),
        m.netflixTemporaryAccessPortuguese('t'),
        m.netflixHouseholdHtml('t'),
        m.netflixTvHtml('t'),
        m.huluOtpHtml('204118'),
        m.netflixSignInSpanish('0482'),
        m.netflixSignInInline('5820'),
        m.netflixSignInDigitCells('3019'),
        m.netflixNoCode,
      ]) {
        expect(classifyBlocked(allowed), allowed.subject).toBeNull();
      }
    });
  });
});

describe('blockedLinkKind', () => {
  it.each([
    ['https://www.netflix.com/password?g=5d7c&lkid=URL_PASSWORD', 'PASSWORD_RESET'],
    ['https://www.netflix.com/LoginHelp', 'PASSWORD_RESET'],
    ['https://www.amazon.com/ap/forgotpassword?openid.return_to=x', 'PASSWORD_RESET'],
    ['https://auth.hulu.com/reset-password?token=abc', 'PASSWORD_RESET'],
    ['https://www.disneyplus.com/account/change-password', 'PASSWORD_RESET'],
    ['https://auth.max.com/verify-email?token=abc', 'EMAIL_CHANGE_VERIFICATION'],
    ['https://www.disneyplus.com/account/change-email/verify?token=zz', 'EMAIL_CHANGE_VERIFICATION'],
    ['https://www.hbomax.com/account/email%2Dverification', 'EMAIL_CHANGE_VERIFICATION'],
    ['https://www.disneyplus.com/identity/verify-identity?flow=change', 'SECURITY_VERIFICATION_CODE'],
  ])('%s is %s', (url, kind) => {
    expect(blockedLinkKind(url)).toBe(kind);
  });

  it.each([
    'https://www.netflix.com/account/travel/verify?nftoken=a',
    'https://www.netflix.com/account/update-primary-location?nftoken=b',
    'https://www.netflix.com/account/tv-sign-in/approve?nftoken=c',
    'https://www.hulu.com/account/email-preferences',
    'https://help.netflix.com/',
    'https://www.netflix.com/youraccount',
  ])('%s leads to no blocked kind', (url) => {
    expect(blockedLinkKind(url)).toBeNull();
  });
});
