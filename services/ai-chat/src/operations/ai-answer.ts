import { z } from 'zod';
import { blockedCodeTypes, codeTypes, type BlockedCodeType, type CodeType, type ParserMail } from '@bo/proto';
import { blockedLinkKind, isAllowedLink, type Extraction } from '../domain/expressions';
import { anchorsOf, visibleText } from '../domain/mail-text';

/** The JSON the prompt asks for; anything else is not an answer. */
const aiAnswerSchema = z.object({
  found: z.boolean(),
  type: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
  links: z.array(z.string()).nullish(),
  blocked_type: z.enum(blockedCodeTypes).nullish(),
});

/** What the AI's answer comes to once checked. */
export type AiJudgement = { outcome: 'found'; found: Extraction } | { outcome: 'blocked'; blockedType: BlockedCodeType } | { outcome: 'not_found' };

/** The caption or address of a deny link in a TV sign-in mail. */
const DENY = /\b(deny|decline|reject|cancel|not me|wasn'?t me)\b/i;
/** Digits split by spaces or dashes in a mail still count as the code. */
const compact = (text: string) => text.replace(/[\s-]+/g, '');
const isBlockedType = (type: string): type is BlockedCodeType => (blockedCodeTypes as readonly string[]).includes(type);

/**
 * Checks the AI's answer before anyone sees it (ADR 15): a named blocked kind, or a link that looks
 * like a password reset, is refused as the expressions refuse it; a code must have the type's shape;
 * a link must be https on the service's own domains; and each must be in the mails the AI was given
 * (the AI must not invent one). Invalid pieces are dropped; nothing left is not found.
 */
export function judgeAiAnswer(content: string, codeType: CodeType, mails: ParserMail[]): AiJudgement {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return { outcome: 'not_found' };
  }
  const parsed = aiAnswerSchema.safeParse(json);
  if (!parsed.success) return { outcome: 'not_found' };
  const answer = parsed.data;
  const info = codeTypes[codeType];

  if (answer.blocked_type) return { outcome: 'blocked', blockedType: answer.blocked_type };
  if (answer.type && isBlockedType(answer.type)) return { outcome: 'blocked', blockedType: answer.type };
  const blockedLink = (answer.links ?? []).map(blockedLinkKind).find((kind) => kind !== null);
  if (blockedLink) return { outcome: 'blocked', blockedType: blockedLink };
  if (!answer.found || (answer.type && answer.type !== codeType)) return { outcome: 'not_found' };

  const anchors = mails.flatMap(anchorsOf);
  const texts = mails.map((mail) => `${mail.subject}\n${visibleText(mail)}`);
  const inMails = (url: string) => anchors.some((anchor) => anchor.url === url) || mails.some((mail) => mail.text.includes(url) || mail.html.includes(url));

  const code = answer.code === null || answer.code === undefined ? null : String(answer.code).trim();
  const validCode = code && info.codePattern?.test(code) && texts.some((text) => compact(text).includes(code)) ? code : null;
  const links = info.yields === 'code' ? [] : [...new Set(answer.links ?? [])].filter((url) => isAllowedLink(url, info.service) && inMails(url));
  if (!validCode && links.length === 0) return { outcome: 'not_found' };

  const captionOf = (url: string) => anchors.find((anchor) => anchor.url === url && anchor.caption)?.caption ?? null;
  const isDeny = (url: string) => DENY.test(captionOf(url) ?? '') || DENY.test(new URL(url).pathname);
  return {
    outcome: 'found',
    found: {
      code: validCode,
      links,
      buttons: links.map((url) => ({ caption: captionOf(url) ?? info.label, url })),
      approvalLinks: info.yields === 'tv' ? links.filter((url) => !isDeny(url)) : [],
      denialLinks: info.yields === 'tv' ? links.filter(isDeny) : [],
    },
  };
}
