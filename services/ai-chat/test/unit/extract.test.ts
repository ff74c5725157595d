import { allowedCodeTypes, type CodeType, type ParserMail } from '@bo/proto';
import { ALLOWED_KINDS } from '@bo/sim-mailbox';
import { describe, expect, it } from 'vitest';
import { extract, isAllowedLink, senderAllowed } from '../../src/domain/expressions';
import * as m from './mails';

const codeOf = (mail: ParserMail, type: CodeType) => extract(mail, type)?.code ?? null;

describe("extract on the simulator's mails", () => {
  it.each(ALLOWED_KINDS)('%s: the code or links of its own type in every form, nothing for any other type', (kind) => {
    const { content, variants } = m.simMails(kind);
    for (const [variant, parserMail] of Object.entries(variants)) {
      const found = extract(parserMail, kind);
      expect(found, variant).not.toBeNull();
      expect(found!.code, variant).toBe(content.code);
      expect(found!.links, variant).toEqual(content.links.map((l) => l.url));
      expect(found!.buttons, variant).toEqual(content.links.map((l) => ({ caption: l.label, url: l.url })));
      for (const other of allowedCodeTypes.filter((t) => t !== kind)) expect(extract(parserMail, other), `${variant} as ${other}`).toBeNull();
    }
  });

  it('reads any code the simulator makes, years and leading zeros included', () => {
    for (const code of ['0000', '0482', '1999', '2026', '9999']) expect(codeOf(m.simMails('NFX_SIGN_IN_CODE', code).variants.full, 'NFX_SIGN_IN_CODE')).toBe(code);
    for (let i = 0; i < 25; i++) {
      const { content, variants } = m.simMails('DP_OTP');
      expect(codeOf(variants.htmlOnly, 'DP_OTP')).toBe(content.code);
    }
  });

  it('gives the TV mail its approve and deny links apart', () => {
    const { content, variants } = m.simMails('NFX_TV_SIGN_IN_LINK');
    const found = extract(variants.htmlOnly, 'NFX_TV_SIGN_IN_LINK')!;
    expect(found.approvalLinks).toEqual([content.links[0].url]);
    expect(found.denialLinks).toEqual([content.links[1].url]);
  });
});

describe('NFX_SIGN_IN_CODE', () => {
  it('reads the code in its own cell of an HTML-only mail, not the 2026, the phone number or the CSS of its footer', () => {
    expect(codeOf(m.netflixSignInHtml('7391'), 'NFX_SIGN_IN_CODE')).toBe('7391');
  });

  it('reads a code that looks like a year when it stands under the wording', () => {
    expect(codeOf(m.netflixSignInHtml('2026'), 'NFX_SIGN_IN_CODE')).toBe('2026');
  });

  it('reads a code written one digit per table cell', () => {
    expect(codeOf(m.netflixSignInDigitCells('3019'), 'NFX_SIGN_IN_CODE')).toBe('3019');
  });

  it('reads the Spanish mail, and a code written inline', () => {
    expect(codeOf(m.netflixSignInSpanish('0482'), 'NFX_SIGN_IN_CODE')).toBe('0482');
    expect(codeOf(m.netflixSignInInline('5820'), 'NFX_SIGN_IN_CODE')).toBe('5820');
  });

  it("reads the contract's pasted example and a mail pasted as one line", () => {
    expect(codeOf(m.mail({ text: 'Enter this code to sign in\n4821' }), 'NFX_SIGN_IN_CODE')).toBe('4821');
    expect(codeOf(m.mail({ text: 'Netflix Enter this code to sign in: 4821 This code will expire in 15 minutes.' }), 'NFX_SIGN_IN_CODE')).toBe('4821');
  });

  it('finds nothing in a Netflix mail with a year, a date, a phone number, a price and an address but no code', () => {
    expect(extract(m.netflixNoCode, 'NFX_SIGN_IN_CODE')).toBeNull();
  });

  it('needs the sign-in wording: four digits on a line of another Netflix mail are not a sign-in code', () => {
    expect(extract(m.mail({ from: m.NETFLIX, subject: 'Your Netflix plan', text: 'Your new plan starts on\n\n2026\n\nThank you for watching.' }), 'NFX_SIGN_IN_CODE')).toBeNull();
    expect(extract(m.mail({ from: m.NETFLIX, subject: 'Welcome back', text: 'Your member number\n\n7391' }), 'NFX_SIGN_IN_CODE')).toBeNull();
  });

  it('takes no year-like line as the code when the wording is only in the subject', () => {
    const memberSince = m.mail({ from: m.NETFLIX, subject: 'Netflix: Your sign-in code', text: 'Hi Anna, open the Netflix app to see your code.\n\nMember since\n2019' });
    expect(extract(memberSince, 'NFX_SIGN_IN_CODE')).toBeNull();
    expect(codeOf({ ...memberSince, text: 'Hi Anna,\n\n6175' }, 'NFX_SIGN_IN_CODE')).toBe('6175');
  });

  it('reads the HTML when the text body is only a stub', () => {
    const stub = { ...m.netflixSignInHtml('7391'), text: 'Your e-mail program cannot show this message. View it at https://www.netflix.com/browse' };
    expect(codeOf(stub, 'NFX_SIGN_IN_CODE')).toBe('7391');
  });

  it('takes no code from a mail sent by anyone but Netflix, even one that reads like Netflix', () => {
    const forged = { ...m.netflixSignInHtml('7391'), from: 'Netflix <info@account.netflix.com.evil.com>' };
    expect(extract(forged, 'NFX_SIGN_IN_CODE')).toBeNull();
    expect(extract({ ...forged, from: 'info@gmail.com' }, 'NFX_SIGN_IN_CODE')).toBeNull();
  });
});

describe('Netflix links', () => {
  it('takes the Get Code link of a temporary access mail, with its caption, in English HTML and Portuguese text', () => {
    expect(extract(m.netflixTemporaryAccessHtml('tok'), 'NFX_TEMPORARY_ACCESS_CODE')).toEqual({
      code: null,
      links: ['https://www.netflix.com/account/travel/verify?nftoken=tok&messageGuid=9a1&lkid=TEMP_ACCESS_CODE'],
      buttons: [{ caption: 'Get Code', url: 'https://www.netflix.com/account/travel/verify?nftoken=tok&messageGuid=9a1&lkid=TEMP_ACCESS_CODE' }],
      approvalLinks: [],
      denialLinks: [],
    });
    expect(extract(m.netflixTemporaryAccessPortuguese('tok'), 'NFX_TEMPORARY_ACCESS_CODE')?.buttons).toEqual([
      { caption: 'Obter código', url: 'https://www.netflix.com/account/travel/verify?nftoken=tok' },
    ]);
  });

  it('takes the "Yes, This Was Me" link of a household mail and nothing of its footer', () => {
    const found = extract(m.netflixHouseholdHtml('tok'), 'NFX_UPDATE_HOUSEHOLD');
    expect(found?.buttons).toEqual([{ caption: 'Yes, This Was Me', url: 'https://www.netflix.com/account/update-primary-location?nftoken=tok&g=ab12' }]);
    expect(found?.links).toEqual(['https://www.netflix.com/account/update-primary-location?nftoken=tok&g=ab12']);
  });

  it('tells approve from deny by caption when the paths do not say it', () => {
    expect(extract(m.netflixTvHtml('c1'), 'NFX_TV_SIGN_IN_LINK')).toEqual({
      code: null,
      links: ['https://www.netflix.com/ilum?code=c1&action=1', 'https://www.netflix.com/ilum?code=c1&action=0'],
      buttons: [
        { caption: 'Approve', url: 'https://www.netflix.com/ilum?code=c1&action=1' },
        { caption: 'Deny', url: 'https://www.netflix.com/ilum?code=c1&action=0' },
      ],
      approvalLinks: ['https://www.netflix.com/ilum?code=c1&action=1'],
      denialLinks: ['https://www.netflix.com/ilum?code=c1&action=0'],
    });
  });

  it("does not take a household mail's \"Yes, This Was Me\" (sent from a Smart TV) as a TV approval, nor a TV mail's links as household or travel links", () => {
    expect(extract(m.netflixHouseholdHtml('t'), 'NFX_TV_SIGN_IN_LINK')).toBeNull();
    expect(extract(m.netflixTvHtml('t'), 'NFX_UPDATE_HOUSEHOLD')).toBeNull();
    expect(extract(m.netflixTvHtml('t'), 'NFX_TEMPORARY_ACCESS_CODE')).toBeNull();
    expect(extract(m.netflixTemporaryAccessHtml('t'), 'NFX_UPDATE_HOUSEHOLD')).toBeNull();
  });

  it('tells approve from deny by caption when one path serves both', () => {
    const tv = m.netflixTvHtml('c1');
    const shared = { ...tv, html: tv.html.replace('/ilum?code=c1&amp;action=1', '/account/approve-or-deny?t=1').replace('/ilum?code=c1&amp;action=0', '/account/approve-or-deny?t=0') };
    const found = extract(shared, 'NFX_TV_SIGN_IN_LINK');
    expect(found?.approvalLinks).toEqual(['https://www.netflix.com/account/approve-or-deny?t=1']);
    expect(found?.denialLinks).toEqual(['https://www.netflix.com/account/approve-or-deny?t=0']);
  });

  it('does not take the confirm button of a household request made from a TV that is signing in as a TV approval', () => {
    const household = m.netflixHouseholdHtml('t');
    const fromTv = { ...household, html: household.html.replace('Samsung Smart TV.', 'a Samsung Smart TV that is trying to sign in.').replace('Yes, This Was Me', 'Confirm Update') };
    expect(extract(fromTv, 'NFX_UPDATE_HOUSEHOLD')?.buttons.map((b) => b.caption)).toEqual(['Confirm Update']);
    expect(extract(fromTv, 'NFX_TV_SIGN_IN_LINK')).toBeNull();
  });

  it("needs each kind's wording: an accept button of a plan change, a travel page, a new-sign-in notice's \"Yes, This Was Me\" are none of the link kinds", () => {
    const plan = m.mail({ from: m.NETFLIX, subject: 'Your Netflix plan is changing', html: '<p>Your plan price changes on December 1.</p><a href="https://www.netflix.com/account/plan/accept?x=1">Accept</a>' });
    const travel = m.mail({ from: m.NETFLIX, subject: 'Take Netflix with you', html: '<p>Travelling soon? Download shows before you leave.</p><a href="https://www.netflix.com/account/travel?source=promo">Get Code</a>' });
    const notice = m.mail({
      from: m.NETFLIX,
      subject: 'New sign-in to your account',
      html: '<p>A new device signed in to your Netflix account: Chrome on Windows.</p><p>Was this you?</p><a href="https://www.netflix.com/account/confirm-signin?x=1">Yes, This Was Me</a>',
    });
    for (const parserMail of [plan, travel, notice]) {
      for (const type of ['NFX_TEMPORARY_ACCESS_CODE', 'NFX_UPDATE_HOUSEHOLD', 'NFX_TV_SIGN_IN_LINK'] as const) expect(extract(parserMail, type), `${parserMail.subject} as ${type}`).toBeNull();
    }
  });

  it("never gives a link to a blocked kind's page, whatever its caption", () => {
    const temporary = m.netflixTemporaryAccessHtml('t');
    const reset = { ...temporary, html: temporary.html.replace(/https:\/\/www\.netflix\.com\/account\/travel\/verify[^"]*/, 'https://www.netflix.com/password?g=1') };
    expect(extract(reset, 'NFX_TEMPORARY_ACCESS_CODE')).toBeNull();
  });

  it('drops links on look-alike hosts and plain http, and finds nothing when no link is left', () => {
    const evil = (html: string) => html.replace(/https:\/\/www\.netflix\.com\/account/g, 'https://www.netflix.com.evil.com/account');
    const insecure = (html: string) => html.replace(/https:\/\/www\.netflix\.com\/account/g, 'http://www.netflix.com/account');
    for (const change of [evil, insecure]) {
      const temporary = m.netflixTemporaryAccessHtml('t');
      expect(extract({ ...temporary, html: change(temporary.html) }, 'NFX_TEMPORARY_ACCESS_CODE')).toBeNull();
      const household = m.netflixHouseholdHtml('t');
      expect(extract({ ...household, html: change(household.html) }, 'NFX_UPDATE_HOUSEHOLD')).toBeNull();
      const tv = m.simMails('NFX_TV_SIGN_IN_LINK').variants.htmlOnly;
      expect(extract({ ...tv, html: change(tv.html) }, 'NFX_TV_SIGN_IN_LINK')).toBeNull();
    }
  });

  it('keeps the good link of a mail that also holds a look-alike', () => {
    const temporary = m.netflixTemporaryAccessHtml('good');
    const both = { ...temporary, html: temporary.html.replace('</table></td></tr></table>', '<tr><td><a href="https://netflix.com.evil.com/account/travel/verify?x=1">Get Code</a></td></tr></table></td></tr></table>') };
    expect(extract(both, 'NFX_TEMPORARY_ACCESS_CODE')?.links).toEqual(['https://www.netflix.com/account/travel/verify?nftoken=good&messageGuid=9a1&lkid=TEMP_ACCESS_CODE']);
  });

  it('gives a link written without a caption the caption Netflix shows', () => {
    const bare = m.mail({ from: m.NETFLIX, subject: 'Your Netflix temporary access code', text: 'You asked for a temporary access code.\n\nhttps://www.netflix.com/account/travel/verify?nftoken=z' });
    expect(extract(bare, 'NFX_TEMPORARY_ACCESS_CODE')?.buttons).toEqual([{ caption: 'Get Code', url: 'https://www.netflix.com/account/travel/verify?nftoken=z' }]);
  });
});

describe('one-time codes', () => {
  it.each([
    ['DP_OTP', m.disneyOtpHtml('481920'), '481920'],
    ['DP_OTP', m.disneyOtpSpanish('654321'), '654321'],
    ['AMZ_OTP', m.amazonOtp('538201'), '538201'],
    ['AMZ_OTP', m.primeVideoOtpHtml('090817'), '090817'],
    ['HLU_OTP', m.huluOtpHtml('204118'), '204118'],
    ['MAX_OTP', m.maxOtpHtml('772031'), '772031'],
    ['MAX_OTP', { ...m.maxOtpHtml('772031'), subject: 'Your Max code' }, '772031'],
  ] as const)('%s reads %s', (type, parserMail, code) => {
    expect(codeOf(parserMail, type)).toBe(code);
  });

  it('reads "123456 is your code" and a pasted mail without sender', () => {
    expect(codeOf(m.mail({ from: m.HULU, subject: 'Hulu', text: '613370 is your Hulu one-time passcode.' }), 'HLU_OTP')).toBe('613370');
    expect(codeOf(m.mail({ text: 'Your one-time passcode for Disney+\n\n481920' }), 'DP_OTP')).toBe('481920');
  });

  it('needs one-time code wording: six digits in an order mail are not a code', () => {
    expect(extract(m.mail({ from: m.AMAZON, subject: 'Your Amazon.com order has shipped', text: 'Order #112-4839201-7712345\n\n104455\n\nArriving Tuesday.' }), 'AMZ_OTP')).toBeNull();
    expect(extract(m.mail({ from: m.AMAZON, subject: 'Your Prime Video Channels order', text: '104455 is your order number.' }), 'AMZ_OTP')).toBeNull();
  });

  it('takes nothing from a pasted mail that names two services as often', () => {
    const bundle = m.mail({ text: 'Your Disney Bundle: use this one-time passcode for Hulu and Disney+.\n\n204118' });
    expect(extract(bundle, 'DP_OTP')).toBeNull();
    expect(extract(bundle, 'HLU_OTP')).toBeNull();
  });

  const otpMails: Record<'DP_OTP' | 'AMZ_OTP' | 'HLU_OTP' | 'MAX_OTP', ParserMail[]> = {
    DP_OTP: [m.disneyOtpHtml('481920'), m.disneyOtpSpanish('654321'), m.simMails('DP_OTP').variants.full],
    AMZ_OTP: [m.amazonOtp('538201'), m.primeVideoOtpHtml('538201'), m.simMails('AMZ_OTP').variants.full],
    HLU_OTP: [m.huluOtpHtml('204118'), m.simMails('HLU_OTP').variants.full],
    MAX_OTP: [m.maxOtpHtml('772031'), m.simMails('MAX_OTP').variants.full],
  };
  const otpTypes = Object.keys(otpMails) as (keyof typeof otpMails)[];

  it.each(otpTypes)("%s takes no code out of the other services' mails, by sender, and by wording when there is no sender", (type) => {
    for (const other of otpTypes.filter((t) => t !== type)) {
      for (const parserMail of otpMails[other]) {
        expect(codeOf(parserMail, other), `${other} reads its own`).not.toBeNull();
        expect(extract(parserMail, type), `${type} on ${parserMail.subject}`).toBeNull();
        expect(extract({ ...parserMail, from: '' }, type), `${type} on ${parserMail.subject} without sender`).toBeNull();
      }
    }
  });

  it("DP_OTP takes no code out of a Hulu mail that advertises the Disney+ bundle, even without its sender", () => {
    const hulu = { ...m.huluOtpHtml('204118'), from: '' };
    expect(codeOf(hulu, 'HLU_OTP')).toBe('204118');
    expect(extract(hulu, 'DP_OTP')).toBeNull();
  });

  it('NFX_SIGN_IN_CODE takes no 4 digits out of a 6-digit code mail, and the OTP types take no 4-digit Netflix code', () => {
    expect(extract({ ...m.amazonOtp('538201'), from: '' }, 'NFX_SIGN_IN_CODE')).toBeNull();
    for (const type of otpTypes) expect(extract({ ...m.netflixSignInHtml('7391'), from: '' }, type)).toBeNull();
  });
});

describe('senderAllowed', () => {
  it.each([
    ['Netflix <info@account.netflix.com>', 'NFX'],
    ['info@mailer.netflix.com', 'NFX'],
    ['"Disney+" <disneyplus@trx.mail2.disneyplus.com>', 'DPS'],
    ['account-update@amazon.com', 'AMZ'],
    ['no-reply@primevideo.com', 'AMZ'],
    ['Hulu <hulu@hulumail.com>', 'HLU'],
    ['HBO Max <no-reply@hbomax.com>', 'MAX'],
    ['Max <no-reply@message.max.com>', 'MAX'],
  ] as const)('%s is from %s', (from, service) => {
    expect(senderAllowed(from, service)).toBe(true);
  });

  it.each([
    ['info@netflix.com.evil.com', 'NFX'],
    ['info@evilnetflix.com', 'NFX'],
    ['"info@netflix.com" <phish@evil.com>', 'NFX'],
    ['Netflix', 'NFX'],
    ['', 'NFX'],
    ['hulu@hulumail.com', 'DPS'],
    ['no-reply@hbomax.com.evil.com', 'MAX'],
    ['account-update@amazon.co.uk', 'AMZ'],
  ] as const)('%s is not from %s', (from, service) => {
    expect(senderAllowed(from, service)).toBe(false);
  });
});

describe('isAllowedLink', () => {
  it.each([
    ['https://www.netflix.com/account/travel/verify?nftoken=a', 'NFX'],
    ['https://netflix.com/x', 'NFX'],
    ['https://www.disneyplus.com/x', 'DPS'],
    ['https://www.primevideo.com/x', 'AMZ'],
    ['https://auth.max.com/x', 'MAX'],
    ['https://play.hbomax.com/x', 'MAX'],
  ] as const)('%s is a %s link', (url, service) => {
    expect(isAllowedLink(url, service)).toBe(true);
  });

  it.each([
    ['http://www.netflix.com/account/travel/verify', 'NFX'],
    ['https://www.netflix.com.evil.com/account/travel/verify', 'NFX'],
    ['https://netflix.com@evil.com/account', 'NFX'],
    ['https://user:pass@www.netflix.com/account', 'NFX'],
    ['https://evil.com/?next=https://www.netflix.com/', 'NFX'],
    ['javascript:alert(1)', 'NFX'],
    ['not a url', 'NFX'],
    ['https://www.netflix.com/x', 'DPS'],
    ['https://www.hulumail.com/x', 'HLU'],
  ] as const)('%s is not a %s link', (url, service) => {
    expect(isAllowedLink(url, service)).toBe(false);
  });
});
