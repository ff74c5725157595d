import type { ParserMail } from '@bo/proto';
import { composeMail, type MailKind } from '@bo/sim-mailbox';

/**
 * Mails as the services send them, written after their real mails (layouts, footers, the
 * languages shared accounts are set to), next to the mailbox simulator's. Each is a ParserMail as
 * streaming-keys hands it over: decoded, newest first, From as written in the header.
 */

export const mail = (fields: Partial<ParserMail>): ParserMail => ({ uid: 1, from: '', subject: '', date: '2026-11-23T08:00:00.000Z', text: '', html: '', ...fields });

/** The simulator's mail of `kind` with both bodies, and the same mail text-only, HTML-only, and pasted (no sender, no subject). */
export function simMails(kind: MailKind, code?: string) {
  const content = composeMail(kind, 'nfx.1@example.mn', code);
  const full = mail({ from: content.from, subject: content.subject, text: content.text, html: content.html });
  return {
    content,
    variants: {
      full,
      textOnly: { ...full, html: '' },
      htmlOnly: { ...full, text: '' },
      pasted: mail({ text: content.text }),
    } satisfies Record<string, ParserMail>,
  };
}

const netflixFooter = `<tr><td class="footer" style="font-size:11px;color:#a9a6a6">
Questions? Call <a href="tel:1-866-579-7172" style="color:#a9a6a6">1-866-579-7172</a><br>
<a href="https://help.netflix.com/">Help Center</a> &middot; <a href="https://www.netflix.com/youraccount">Account</a> &middot; <a href="https://help.netflix.com/legal/termsofuse">Terms of Use</a><br>
This account e-mail has been sent to you as part of your Netflix membership.<br>
Netflix Services UK Limited &copy; 2026 Netflix, Inc. 100 Winchester Circle, Los Gatos, CA 95032
</td></tr>`;

const netflixHtml = (rows: string) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Netflix</title>
<style type="text/css">@media only screen and (max-width:2024px){.lrg-number{font-size:1234px!important}}</style></head>
<body><div style="display:none;max-height:0;overflow:hidden">&#847;&zwnj;&nbsp;&#847;&zwnj;&nbsp;</div>
<table width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center">
<table width="500" cellpadding="0" cellspacing="0"><tr><td><img src="https://assets.nflxext.com/logo.png" alt="Netflix" width="96"></td></tr>
${rows}
${netflixFooter}
</table></td></tr></table><script>var year = 2026;</script></body></html>`;

export const NETFLIX = 'Netflix <info@account.netflix.com>';

/** The sign-in code in its own table cell, HTML only, with a year, a phone number and an address in the footer. */
export const netflixSignInHtml = (code: string) =>
  mail({
    from: NETFLIX,
    subject: 'Netflix: Your sign-in code',
    html: netflixHtml(`<tr><td class="h1" style="font-size:28px;font-weight:bold">Enter this code to sign in</td></tr>
<tr><td>&nbsp;</td></tr>
<tr><td class="lrg-number" style="font-size:36px;letter-spacing:4px">${code}</td></tr>
<tr><td>This code will expire in 15 minutes.</td></tr>
<tr><td>If you didn&rsquo;t request this code, someone may have typed your e-mail address by mistake. If you think someone else is using your account, <a href="https://www.netflix.com/password">change your password</a>.</td></tr>`),
  });

/** The same layout with one table cell per digit. */
export const netflixSignInDigitCells = (code: string) =>
  mail({
    from: 'info@mailer.netflix.com',
    subject: 'Your sign-in code',
    html: netflixHtml(`<tr><td>Enter this code to sign in</td></tr>
<tr><td><table><tr>${[...code].map((d) => `<td class="digit" style="border:1px solid #ccc;padding:8px">${d}</td>`).join('')}</tr></table></td></tr>
<tr><td>This code will expire in 15 minutes.</td></tr>`),
  });

export const netflixSignInSpanish = (code: string) =>
  mail({
    from: NETFLIX,
    subject: 'Netflix: Tu código de inicio de sesión',
    text: `Introduce este código para iniciar sesión\n\n${code}\n\nEste código caducará en 15 minutos.\n\nSi no solicitaste este código, puedes ignorar este mensaje.\n\n¿Preguntas? Llama al 900 822 484`,
  });

export const netflixSignInInline = (code: string) =>
  mail({
    from: NETFLIX,
    subject: 'Netflix sign-in',
    text: `Hi Anna,\nYour Netflix sign-in code is ${code}. It expires in 15 minutes.\nNetflix, Inc. 100 Winchester Circle, Los Gatos, CA 95032 · Questions? Call 1-866-579-7172`,
  });

/** A Netflix mail about sign-in codes with a date, a year, a time, a phone number and an address, but no code. */
export const netflixNoCode = mail({
  from: NETFLIX,
  subject: 'Netflix: We could not send your sign-in code',
  text: [
    'Someone asked for a sign-in code for your account on November 23, 2026 at 08:15.',
    'We could not text it to the phone number ending in 7172, and sign-in codes are valid for 15 minutes.',
    'Questions? Call 1-866-579-7172 or visit help.netflix.com.',
    'Your plan: Premium, $22.99/month, renews 12/23/2026. Gift code: 2026-1123-4455 applied.',
    '© 2026 Netflix, Inc.',
    '100 Winchester Circle, Los Gatos, CA 95032',
  ].join('\n'),
});

export const netflixTemporaryAccessHtml = (token: string) =>
  mail({
    from: NETFLIX,
    subject: 'Your Netflix temporary access code',
    html: netflixHtml(`<tr><td><h1>Your temporary access code</h1></td></tr>
<tr><td>Hi Anna, you requested a temporary access code for a device that is not part of the Netflix Household for this account. Watch for up to 7 days while you&#39;re traveling.</td></tr>
<tr><td align="center"><table><tr><td class="btn" style="background:#e50914"><a href="https://www.netflix.com/account/travel/verify?nftoken=${token}&amp;messageGuid=9a1&amp;lkid=TEMP_ACCESS_CODE" style="color:#fff;text-decoration:none"><span>Get&nbsp;Code</span></a></td></tr></table></td></tr>
<tr><td>The link expires in 15 minutes.</td></tr>`),
  });

export const netflixTemporaryAccessPortuguese = (token: string) =>
  mail({
    from: NETFLIX,
    subject: 'Seu código de acesso temporário da Netflix',
    text: `Você solicitou um código de acesso temporário para um aparelho que não faz parte da residência Netflix desta conta.\n\nObter código\n<https://www.netflix.com/account/travel/verify?nftoken=${token}>\n\nO link expira em 15 minutos.`,
  });

export const netflixHouseholdHtml = (token: string) =>
  mail({
    from: NETFLIX,
    subject: 'Important: How to update your Netflix Household',
    html: netflixHtml(`<tr><td><h1>Did you request to update your Netflix Household?</h1></td></tr>
<tr><td>We received a request to update the Netflix Household for your account from a device in Ulaanbaatar: Samsung Smart TV.</td></tr>
<tr><td><a href="https://www.netflix.com/account/update-primary-location?nftoken=${token}&amp;g=ab12" class="btn">Yes, This Was Me</a></td></tr>
<tr><td>If this wasn&#39;t you, you can ignore this e-mail. The link expires in 15 minutes.</td></tr>`),
  });

export const netflixTvHtml = (token: string) =>
  mail({
    from: NETFLIX,
    subject: 'Netflix: New sign-in request',
    html: netflixHtml(`<tr><td>Someone is trying to sign in to Netflix on a TV with your account.</td></tr>
<tr><td>Approve the sign-in only if you are in front of that TV right now.</td></tr>
<tr><td><a href="https://www.netflix.com/ilum?code=${token}&amp;action=1">Approve</a> <a href="https://www.netflix.com/ilum?code=${token}&amp;action=0">Deny</a></td></tr>`),
  });

export const netflixPasswordResetHtml = mail({
  from: NETFLIX,
  subject: 'Reset your password',
  html: netflixHtml(`<tr><td><h1>Reset your password</h1></td></tr>
<tr><td>Hi Anna,</td></tr><tr><td>Let&rsquo;s reset your password so you can get back to watching.</td></tr>
<tr><td><a href="https://www.netflix.com/password?g=5d7c&amp;lkid=URL_PASSWORD">Reset Password</a></td></tr>
<tr><td>If you did not ask to reset your password, you can ignore this e-mail.</td></tr>`),
});

/** A reset code mail: "Enter this code", 4 digits, like the sign-in code mail. */
export const netflixPasswordResetCode = (code: string) =>
  mail({ from: NETFLIX, subject: 'Netflix: Your password reset code', text: `Enter this code to reset your password\n\n${code}\n\nThis code will expire in 15 minutes.` });

/** A mail that says nothing and whose only button leads to the password page. */
export const netflixBareResetLink = mail({
  from: NETFLIX,
  subject: 'Netflix',
  html: netflixHtml(`<tr><td>Hi Anna, tap the button below to continue.</td></tr><tr><td><a href="https://www.netflix.com/password?g=77">Continue</a></td></tr>`),
});

export const netflixResetSpanish = mail({
  from: NETFLIX,
  subject: 'Completa tu solicitud de restablecimiento de contraseña',
  text: 'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Netflix.\n\nRestablecer contraseña: https://www.netflix.com/password?g=12\n\nSi no fuiste tú, ignora este mensaje.',
});

export const netflixSecurityCode = (code: string) =>
  mail({
    from: NETFLIX,
    subject: 'Netflix: Your verification code',
    text: `Enter this code to verify it's you\n\n${code}\n\nWe ask for this code when your account's e-mail, phone number or password is changed.`,
  });

export const netflixSecurityGerman = (code: string) =>
  mail({ from: NETFLIX, subject: 'Bestätige, dass du es bist', text: `Gib diesen Code ein, um die Änderung zu bestätigen:\n\n${code}` });

export const DISNEY = 'Disney+ <disneyplus@trx.mail2.disneyplus.com>';

/** Disney+'s passcode mail, HTML only, with advice that links to the password reset page. */
export const disneyOtpHtml = (code: string) =>
  mail({
    from: DISNEY,
    subject: 'Your one-time passcode for Disney+',
    html: `<html><body style="background:#1a1d29"><table><tr><td><img alt="Disney+" src="https://static-mh.content.disney.io/logo.png"></td></tr>
<tr><td style="color:#fff"><h2>Your one-time passcode</h2></td></tr>
<tr><td>Use this one-time passcode to log in to Disney+ and verify the email address associated with your MyDisney account.</td></tr>
<tr><td style="font-size:32px;font-weight:700;letter-spacing:2px">${code}</td></tr>
<tr><td>This passcode will expire in 15 minutes.</td></tr>
<tr><td>If you didn't request this passcode, please <a href="https://www.disneyplus.com/reset-password">reset your password</a>.</td></tr>
<tr><td style="font-size:10px">&copy; 2026 Disney and its related entities. 500 S. Buena Vista Street, Burbank, CA 91521</td></tr></table></body></html>`,
  });

export const disneyOtpSpanish = (code: string) =>
  mail({ from: DISNEY, subject: 'Tu código de acceso único para Disney+', text: `Usa este código de acceso único para iniciar sesión en Disney+:\n\n${code}\n\nEl código caduca en 15 minutos.` });

/** Same subject as the passcode mail, but the code confirms a change to the account. */
export const disneySecurityCode = (code: string) =>
  mail({
    from: DISNEY,
    subject: 'Your one-time passcode for Disney+',
    text: `We need to verify it's you before you can change your account's email address or password.\n\nUse this passcode:\n\n${code}\n\nIt expires in 15 minutes.`,
  });

export const disneyEmailChangeLink = mail({
  from: DISNEY,
  subject: 'Disney+ account update',
  html: '<p>You requested to update the email address on your account.</p><p><a href="https://www.disneyplus.com/account/change-email/verify?token=zz">Continue</a></p>',
});

export const AMAZON = 'Amazon.com <account-update@amazon.com>';
const amazonOtpBody = (code: string) =>
  `To authenticate, please use the following One Time Password (OTP):\n\n${code}\n\nDon't share this OTP with anyone. Our customer service team will never ask you for your password, OTP, credit card, or banking info.\n\nWe hope to see you again soon.`;

export const amazonOtp = (code: string) => mail({ from: AMAZON, subject: 'Amazon.com: Your one-time password', text: amazonOtpBody(code) });

export const primeVideoOtpHtml = (code: string) =>
  mail({
    from: 'Prime Video <no-reply@primevideo.com>',
    subject: 'Prime Video: sign-in verification',
    html: `<div><h3>Prime Video</h3><p>Enter this verification code to sign in:</p><p class="otp"><b>${code}</b></p><p>Order #112-4839201-7712345 is not affected. Call 1-888-280-4331 with questions.</p></div>`,
  });

/** Amazon's password-assistance mail reads exactly like its sign-in one-time password; only the subject tells. */
export const amazonPasswordAssistance = (code: string) => mail({ from: AMAZON, subject: 'Amazon password assistance', text: amazonOtpBody(code) });

export const amazonNewEmail = (code: string) =>
  mail({ from: AMAZON, subject: 'Verify your new email address', text: `To verify your new email address, please use the following One Time Password (OTP):\n\n${code}` });

export const HULU = 'Hulu <hulu@hulumail.com>';

/** Hulu's code written "204 118", with the Disney Bundle in the footer. */
export const huluOtpHtml = (code: string) =>
  mail({
    from: HULU,
    subject: 'Hulu: Your verification code',
    html: `<table><tr><td>Enter this code to continue logging in to Hulu:</td></tr><tr><td style="font-size:30px">${code.slice(0, 3)} ${code.slice(3)}</td></tr>
<tr><td>The code expires in 15 minutes.</td></tr>
<tr><td>Get Hulu, Disney+ and ESPN+ with the Disney Bundle. <a href="https://www.hulu.com/account/email-preferences">Manage email preferences</a> &middot; update your email preferences any time.</td></tr>
<tr><td>&copy; 2026 Hulu, LLC. 2500 Broadway, Santa Monica, CA 90404</td></tr></table>`,
  });

export const huluReset = mail({
  from: HULU,
  subject: 'Reset your Hulu password',
  text: 'We received a request to reset the password for your Hulu account. Click the link below to choose a new password:\nhttps://auth.hulu.com/reset-password?token=abc\nThis link expires in 24 hours.',
});

export const MAX = 'Max <no-reply@message.max.com>';

export const maxOtpHtml = (code: string) =>
  mail({
    from: MAX,
    subject: `Your Max code is ${code}`,
    html: `<div><p>Use this code to sign in to Max:</p><p style="font-size:30px">${code}</p><p>This code expires in 15 minutes. For your account security, never share this code.</p></div>`,
  });

export const maxNewEmailCode = (code: string) =>
  mail({ from: MAX, subject: 'Max: Confirm your new email address', text: `Use this code to verify your new email address:\n\n${code}\n\nThe code expires in 10 minutes.` });

export const maxUnusualActivity = (code: string) =>
  mail({ from: 'HBO Max <no-reply@hbomax.com>', subject: 'Max sign-in', text: `We noticed unusual sign-in activity on your Max account. Enter the code below to continue:\n\n${code}` });

/**
 * Bodies that made an earlier version's expressions rescan the rest of the mail once per tag or
 * line: seconds to minutes at these sizes, where one pass takes a few hundred milliseconds. The
 * unit test reads each (mail-text.test.ts); bench/mail-parser.ts times them.
 */
export const hostileBodies = {
  unclosedAnchors: '<a href="https://www.netflix.com/x">'.repeat(20_000),
  lessThans: '<'.repeat(400_000),
  unclosedStyles: '<style>'.repeat(60_000),
  unclosedComments: '<!--'.repeat(100_000),
  spacesAfterCode: `code${' '.repeat(200_000)}x`,
  dashesBeforeLink: `${'-'.repeat(200_000)} https://www.netflix.com/x`,
  dotsInLink: `https://www.netflix.com/${'.'.repeat(200_000)}b`,
  frenchNegations: 'ne '.repeat(100_000),
  linkLines: 'https://www.netflix.com/x\n'.repeat(20_000),
};

/** A hostile body as each kind of mail carries it: HTML only, and plain text under a long subject. */
export const hostileMails = (body: string): ParserMail[] => [mail({ html: body }), mail({ text: body, subject: `code${' '.repeat(1990)}x` })];
