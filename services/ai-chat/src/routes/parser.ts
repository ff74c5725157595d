import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { parseMails, testEmailParser, type ParserMail } from '@bo/proto';
import { visibleText } from '../domain/mail-text';
import type { AiChatRouteDeps } from './deps';

const looksLikeHtml = (text: string) => /<(html|body|div|p|a|table|br)\b[^>]*>/i.test(text);

/** A pasted mail as the parser reads one from a mailbox: HTML as its HTML body with the text taken from it, like streaming-keys does. */
function pastedMail(emailText: string): ParserMail {
  const mail: ParserMail = { uid: 0, from: '', subject: '', date: new Date().toISOString(), text: emailText, html: '' };
  return looksLikeHtml(emailText) ? { ...mail, html: emailText, text: visibleText({ ...mail, text: '', html: emailText }) } : mail;
}

/** The admin's parser test (document 2 §7.2) and the parse behind a customer's code fetch: the same pipeline. */
export function registerParserRoutes(app: FastifyInstance, { parser }: AiChatRouteDeps): void {
  // A pasted mail has no sender, so the sender check is skipped here only.
  serveRoute(app, testEmailParser, async ({ body }) => ({ success: true, data: (await parser.parse(body.codeType, [pastedMail(body.emailText)], { checkSender: false })).result }));

  serveRoute(app, parseMails, async ({ body }) => parser.parse(body.codeType, body.mails, { checkSender: true }));
}
