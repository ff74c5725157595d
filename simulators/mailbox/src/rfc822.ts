import { randomBytes } from 'node:crypto';
import type { MailContent } from './emails';

/** Quoted-printable (RFC 2045) over UTF-8, lines soft-wrapped at 76 characters. */
export function quotedPrintable(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const bytes = Buffer.from(line, 'utf8');
      const tokens = [...bytes].map((b, i) => {
        const trailingSpace = (b === 0x20 || b === 0x09) && i === bytes.length - 1;
        return (b >= 33 && b <= 126 && b !== 61) || ((b === 0x20 || b === 0x09) && !trailingSpace) ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      });
      const wrapped: string[] = [];
      let current = '';
      for (const token of tokens) {
        if (current.length + token.length > 75) {
          wrapped.push(`${current}=`);
          current = '';
        }
        current += token;
      }
      wrapped.push(current);
      return wrapped.join('\r\n');
    })
    .join('\r\n');
}

/** The e-mail as a MIME message (multipart/alternative: text, then HTML), CRLF line ends. */
export function toRfc822(mail: MailContent, date: Date): { raw: Buffer; messageId: string } {
  const boundary = `----=_Part_${randomBytes(8).toString('hex')}`;
  const domain = mail.from.match(/@([^>]+)>/)?.[1] ?? 'mail.example';
  const messageId = `<${randomBytes(12).toString('hex')}@${domain}>`;
  const part = (type: string, body: string) => [`--${boundary}`, `Content-Type: ${type}; charset=UTF-8`, 'Content-Transfer-Encoding: quoted-printable', '', quotedPrintable(body)].join('\r\n');
  const lines = [
    `Return-Path: <${mail.from.match(/<([^>]+)>/)?.[1] ?? ''}>`,
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${messageId}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    part('text/plain', mail.text),
    part('text/html', mail.html),
    `--${boundary}--`,
    '',
  ];
  return { raw: Buffer.from(lines.join('\r\n'), 'utf8'), messageId };
}
