import { describe, expect, it } from 'vitest';
import { classifyBlocked, extract } from '../../src/domain/expressions';
import { anchorsOf, visibleText } from '../../src/domain/mail-text';
import { hostileBodies, hostileMails, mail, netflixSignInDigitCells, netflixSignInHtml, netflixTemporaryAccessHtml, simMails } from './mails';

describe('visibleText', () => {
  it('is the text body when there is one', () => {
    expect(visibleText(mail({ text: 'Enter this code to sign in\r\n\r\n4821\r\n', html: '<p>something else</p>' }))).toBe('Enter this code to sign in\n\n4821');
  });

  it("reads an HTML-only mail as its reader sees it: no head, style, script or comments, entities decoded, one line per block", () => {
    const text = visibleText(netflixSignInHtml('7391'));
    const lines = text.split('\n');
    expect(lines).toContain('Enter this code to sign in');
    expect(lines).toContain('7391');
    expect(text).toContain("If you didn’t request this code");
    expect(text).toContain('Help Center · Account · Terms of Use');
    expect(text).toContain('© 2026 Netflix, Inc.');
    for (const hidden of ['@media', '1234px', 'var year', '<', '&nbsp;', '&#847;', '\u034f', '\u00a0']) expect(text).not.toContain(hidden);
    expect(text).not.toMatch(/\n{3}/);
  });

  it('puts table cells side by side, so a code written one digit per cell reads as one line', () => {
    expect(visibleText(netflixSignInDigitCells('3019')).split('\n')).toContain('3 0 1 9');
  });

  it('reads a pasted HTML source as HTML', () => {
    expect(visibleText(mail({ text: '<html><body><p>Your code</p><p>5120</p></body></html>' }))).toBe('Your code\n\n5120');
  });

  it('decodes numeric and named entities, and leaves unknown ones as written', () => {
    expect(visibleText(mail({ html: '<p>It&#39;s &#x263A; &amp; &eacute;t&eacute; &bogus;</p>' }))).toBe("It's ☺ & &eacute;t&eacute; &bogus;");
  });
});

describe('anchorsOf', () => {
  it('takes <a href> links with their visible captions, the &amp; of the href decoded', () => {
    expect(anchorsOf(netflixTemporaryAccessHtml('tok'))).toContainEqual({
      caption: 'Get Code',
      url: 'https://www.netflix.com/account/travel/verify?nftoken=tok&messageGuid=9a1&lkid=TEMP_ACCESS_CODE',
    });
  });

  it("uses an image button's alt, or the link's title, when the anchor has no text; skips tel: and mailto:", () => {
    const anchors = anchorsOf(
      mail({
        html: `<a data-href="https://evil.com/" href="https://www.max.com/a"><img src="x.png" data-alt="x" alt="Sign In"></a><a title="Open" href='https://www.max.com/b'></a>
<a href="tel:1-866-579-7172">Call</a><a href="mailto:help@max.com">Mail</a>`,
      }),
    );
    expect(anchors).toEqual([
      { caption: 'Sign In', url: 'https://www.max.com/a' },
      { caption: 'Open', url: 'https://www.max.com/b' },
    ]);
  });

  it('reads links written out in a text body: "Caption: url", "Caption [url]", a caption on the line above, two on one line', () => {
    const anchors = anchorsOf(
      mail({
        text: [
          'Get Code: https://www.netflix.com/account/travel/verify?nftoken=a.',
          'Yes, This Was Me [https://www.netflix.com/account/update-primary-location?nftoken=b]',
          'Approve',
          '<https://www.netflix.com/tv/approve?t=c>',
          'Approve: https://www.netflix.com/x Deny: https://www.netflix.com/y',
          'To learn more about what a Netflix Household is and how it works, visit https://help.netflix.com/node/1',
        ].join('\n'),
      }),
    );
    expect(anchors).toEqual([
      { caption: 'Get Code', url: 'https://www.netflix.com/account/travel/verify?nftoken=a' },
      { caption: 'Yes, This Was Me', url: 'https://www.netflix.com/account/update-primary-location?nftoken=b' },
      { caption: 'Approve', url: 'https://www.netflix.com/tv/approve?t=c' },
      { caption: 'Approve', url: 'https://www.netflix.com/x' },
      { caption: 'Deny', url: 'https://www.netflix.com/y' },
      { caption: '', url: 'https://help.netflix.com/node/1' },
    ]);
  });

  it("lists a link once when both bodies have it, with the HTML's caption", () => {
    const { content, variants } = simMails('NFX_TV_SIGN_IN_LINK');
    expect(anchorsOf(variants.full).filter((a) => a.url.includes('tv-sign-in'))).toEqual(content.links.map((l) => ({ caption: l.label, url: l.url })));
    expect(anchorsOf(variants.textOnly)).toEqual(content.links.map((l) => ({ caption: l.label, url: l.url })));
  });
});

describe('hostile input', () => {
  // Each of these made an earlier version's expressions rescan the rest of the mail once per tag or
  // line: seconds to minutes at these sizes (a rescan of minutes outlasts this test's timeout). Read
  // in one pass, each takes a few hundred milliseconds: bench/mail-parser.ts prints how long,
  // beside its target. Here: read to the end, and nothing is made up from it.
  it.each(Object.entries(hostileBodies))('%s is read in linear time', (_name, body) => {
    for (const parserMail of hostileMails(body)) {
      expect(typeof visibleText(parserMail)).toBe('string');
      expect(anchorsOf(parserMail).length).toBeLessThanOrEqual(1);
      expect(classifyBlocked(parserMail)).toBeNull();
      expect(extract(parserMail, 'NFX_SIGN_IN_CODE')).toBeNull();
      expect(extract(parserMail, 'NFX_TV_SIGN_IN_LINK')).toBeNull();
    }
  });
});
