import { randomBytes, randomInt } from 'node:crypto';

/**
 * The streaming-service e-mails the shop's mailboxes receive. Kind names follow the parser's code
 * types; the last three are the kinds the parser must refuse.
 */
export const ALLOWED_KINDS = ['NFX_SIGN_IN_CODE', 'NFX_TEMPORARY_ACCESS_CODE', 'NFX_UPDATE_HOUSEHOLD', 'NFX_TV_SIGN_IN_LINK', 'DP_OTP', 'AMZ_OTP', 'HLU_OTP', 'MAX_OTP'] as const;
export const BLOCKED_KINDS = ['PASSWORD_RESET', 'SECURITY_VERIFICATION_CODE', 'EMAIL_CHANGE_VERIFICATION'] as const;
export const MAIL_KINDS = [...ALLOWED_KINDS, ...BLOCKED_KINDS] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface MailLink {
  label: string;
  url: string;
}

export interface MailContent {
  kind: MailKind;
  blocked: boolean;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one-time code in the mail, if the kind carries one. */
  code: string | null;
  links: MailLink[];
}

interface Draft {
  from: string;
  subject: string;
  /** Paragraphs; the text and HTML bodies are both made from them. */
  paragraphs: string[];
  code?: string;
  links?: MailLink[];
}

const NETFLIX = 'Netflix <info@account.netflix.com>';
const DISNEY = 'Disney+ <disneyplus@trx.mail2.disneyplus.com>';
const AMAZON = 'Amazon <account-update@amazon.com>';
const HULU = 'Hulu <hulu@hulumail.com>';
const MAX = 'Max <max@service.hbomax.com>';

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const token = () => randomBytes(18).toString('base64url');

function draft(kind: MailKind, code: string | undefined): Draft {
  const signOff = 'If you did not request this, you can ignore this e-mail.';
  switch (kind) {
    case 'NFX_SIGN_IN_CODE': {
      const c = code ?? digits(4);
      return { from: NETFLIX, subject: 'Netflix: Your sign-in code', code: c, paragraphs: ['Enter this code to sign in', c, 'This code will expire in 15 minutes.', signOff] };
    }
    case 'NFX_TEMPORARY_ACCESS_CODE':
      return {
        from: NETFLIX,
        subject: 'Your Netflix temporary access code',
        paragraphs: ['You requested a temporary access code for a device that is not part of the Netflix Household for this account.', 'Get the code; the link expires in 15 minutes.', signOff],
        links: [{ label: 'Get Code', url: `https://www.netflix.com/account/travel/verify?nftoken=${token()}&messageGuid=${token()}` }],
      };
    case 'NFX_UPDATE_HOUSEHOLD':
      return {
        from: NETFLIX,
        subject: 'Important: How to update your Netflix Household',
        paragraphs: ['A request was made to update the Netflix Household for this account.', 'If this was you, confirm the request; the link expires in 15 minutes.', signOff],
        links: [{ label: 'Yes, This Was Me', url: `https://www.netflix.com/account/update-primary-location?nftoken=${token()}&g=${token()}` }],
      };
    case 'NFX_TV_SIGN_IN_LINK': {
      const t = token();
      return {
        from: NETFLIX,
        subject: 'Netflix: A new TV wants to sign in',
        paragraphs: ['A TV is trying to sign in to your Netflix account.', 'Approve the sign-in only if you are in front of that TV right now.'],
        links: [
          { label: 'Approve', url: `https://www.netflix.com/account/tv-sign-in/approve?nftoken=${t}` },
          { label: 'Deny', url: `https://www.netflix.com/account/tv-sign-in/deny?nftoken=${t}` },
        ],
      };
    }
    case 'DP_OTP': {
      const c = code ?? digits(6);
      return { from: DISNEY, subject: 'Your one-time passcode for Disney+', code: c, paragraphs: ['Use this one-time passcode to log in to Disney+.', c, 'This passcode will expire in 15 minutes.', signOff] };
    }
    case 'AMZ_OTP': {
      const c = code ?? digits(6);
      return { from: AMAZON, subject: 'Amazon Prime Video: Your one-time password', code: c, paragraphs: ['To sign in to Prime Video, enter this one-time password (OTP):', c, 'Do not share this OTP with anyone.', signOff] };
    }
    case 'HLU_OTP': {
      const c = code ?? digits(6);
      return { from: HULU, subject: 'Your Hulu one-time passcode', code: c, paragraphs: ['Here is the one-time passcode you requested to log in to Hulu:', c, 'The passcode expires in 15 minutes.', signOff] };
    }
    case 'MAX_OTP': {
      const c = code ?? digits(6);
      return { from: MAX, subject: 'Your Max one-time code', code: c, paragraphs: ['Enter this code to sign in to Max:', c, 'The code expires in 10 minutes.', signOff] };
    }
    case 'PASSWORD_RESET':
      return {
        from: NETFLIX,
        subject: 'Complete your password reset request',
        paragraphs: ['We received a request to reset the password for your Netflix account.', 'Reset your password with the link below; it expires in 24 hours.', signOff],
        links: [{ label: 'Reset Password', url: `https://www.netflix.com/password?g=${token()}&lkid=URL_PASSWORD` }],
      };
    case 'SECURITY_VERIFICATION_CODE': {
      const c = code ?? digits(6);
      return { from: DISNEY, subject: 'Disney+ account security: verify it is you', code: c, paragraphs: ['We noticed a change to the security settings of your Disney+ account. Enter this verification code to continue:', c, 'If this was not you, change your password right away.'] };
    }
    case 'EMAIL_CHANGE_VERIFICATION':
      return {
        from: MAX,
        subject: 'Verify your new e-mail address for Max',
        paragraphs: ['You asked to change the e-mail address of your Max account.', 'Verify the new address to finish the change.', signOff],
        links: [{ label: 'Verify E-mail', url: `https://auth.max.com/verify-email?token=${token()}` }],
      };
  }
}

const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function htmlBody(d: Draft): string {
  const brand = d.from.split(' <')[0];
  const paragraphs = d.paragraphs.map((p) => (p === d.code ? `<p style="font-size:32px;letter-spacing:6px;font-weight:bold">${escape(p)}</p>` : `<p>${escape(p)}</p>`));
  const buttons = (d.links ?? []).map((l) => `<a href="${escape(l.url)}" style="display:inline-block;background:#e50914;color:#fff;padding:12px 24px;border-radius:4px;text-decoration:none;margin:4px">${escape(l.label)}</a>`);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="font-family:Helvetica,Arial,sans-serif;color:#221f1f">
<table width="100%" cellpadding="0" cellspacing="0"><tr><td align="center"><table width="500"><tr><td>
<h2>${escape(brand)}</h2>${paragraphs.join('\n')}<div>${buttons.join('\n')}</div>
<p style="font-size:11px;color:#a9a6a6">This message was sent to you as a ${escape(brand)} member. Questions? Visit the Help Center.</p>
</td></tr></table></td></tr></table></body></html>`;
}

function textBody(d: Draft): string {
  const links = (d.links ?? []).map((l) => `${l.label}: ${l.url}`);
  return [...d.paragraphs, ...links].join('\n\n');
}

/** A new e-mail of this kind for `to`; `code` fixes the one-time code instead of a random one. */
export function composeMail(kind: MailKind, to: string, code?: string): MailContent {
  const d = draft(kind, code);
  return {
    kind,
    blocked: (BLOCKED_KINDS as readonly string[]).includes(kind),
    from: d.from,
    to,
    subject: d.subject,
    text: textBody(d),
    html: htmlBody(d),
    code: d.code ?? null,
    links: d.links ?? [],
  };
}
