import { codeTypes, EMAIL_PARSER_PROMPT_ID, type BlockedCodeType, type CodeType, type ParseOutcome, type ParseResult, type ParserMail } from '@bo/proto';
import type { AiProviders } from '../clients/ai-providers';
import { classifyBlocked, extract, senderAllowed, type Extraction } from '../domain/expressions';
import { DEFAULT_EMAIL_PARSER_PROMPT, parserUserMessage } from '../domain/parser-prompt';
import { describeOutcome } from '../domain/result-texts';
import type { PrismaClient } from '../generated/prisma/client';
import { promptsStore } from '../store/prompts-store';
import { providersStore } from '../store/providers-store';
import { judgeAiAnswer } from './ai-answer';

/** The newest mails the AI sees when the expressions found nothing: a code mail is among the last few. */
const AI_MAIL_LIMIT = 3;

export interface ParseReply {
  result: ParseResult;
  /** False when the answer depended on an AI that did not answer (the caller must not remember it). */
  cacheable: boolean;
}

const nothing: Extraction = { code: null, links: [], buttons: [], approvalLinks: [], denialLinks: [] };

function resultOf(codeType: CodeType, outcome: ParseOutcome, source: ParseResult['source'], blockedType: BlockedCodeType | null, found: Extraction = nothing): ParseResult {
  return {
    found: outcome === 'found',
    ...describeOutcome(outcome, codeType, outcome === 'blocked' ? blockedType : null),
    code: found.code,
    links: found.links,
    buttons: found.buttons,
    approvalLinks: found.approvalLinks,
    denialLinks: found.denialLinks,
    outcome,
    blockedType: outcome === 'blocked' ? blockedType : null,
    source,
  };
}

/**
 * The e-mail parser (ADR 15), for a customer's fetch and the admin's test alike. Mails come newest
 * first. A mail of a blocked kind is refused and never sent to the AI; the first mail the expressions
 * read the asked type from answers. Only when they find nothing does the AI see the newest
 * non-blocked mails, in one request, with the saved prompt (else the default); its answer is
 * checked like the expressions' rules before it is used.
 */
export class EmailParser {
  constructor(private readonly deps: { prisma: PrismaClient; ai: AiProviders }) {}

  /** `checkSender`: mails not from the type's service are dropped (a pasted test mail has no sender). */
  async parse(codeType: CodeType, mails: ParserMail[], { checkSender }: { checkSender: boolean }): Promise<ParseReply> {
    const service = codeTypes[codeType].service;
    const recent = checkSender ? mails.filter((mail) => senderAllowed(mail.from, service)) : mails;
    if (recent.length === 0) return { result: resultOf(codeType, 'no_recent_emails', 'none', null), cacheable: true };

    let blockedType: BlockedCodeType | null = null;
    const readable: ParserMail[] = [];
    for (const mail of recent) {
      const blocked = classifyBlocked(mail);
      if (blocked) {
        blockedType ??= blocked;
        continue;
      }
      const found = extract(mail, codeType);
      if (found) return { result: resultOf(codeType, 'found', 'expressions', null, found), cacheable: true };
      readable.push(mail);
    }
    // Nothing of the asked type, and every mail refused: the refusal says why.
    if (readable.length === 0) return { result: resultOf(codeType, 'blocked', 'expressions', blockedType), cacheable: true };

    const asked = readable.slice(0, AI_MAIL_LIMIT);
    const answer = await this.askAi(codeType, asked);
    if (answer === null) {
      return { result: blockedType ? resultOf(codeType, 'blocked', 'expressions', blockedType) : resultOf(codeType, 'unavailable', 'none', null), cacheable: false };
    }
    const judged = judgeAiAnswer(answer, codeType, asked);
    if (judged.outcome === 'found') return { result: resultOf(codeType, 'found', 'ai', null, judged.found), cacheable: true };
    if (judged.outcome === 'blocked') return { result: resultOf(codeType, 'blocked', 'ai', judged.blockedType), cacheable: true };
    return { result: blockedType ? resultOf(codeType, 'blocked', 'expressions', blockedType) : resultOf(codeType, 'not_found', 'ai', null), cacheable: true };
  }

  /** The first enabled provider's answer, or null when none answered. */
  private async askAi(codeType: CodeType, mails: ParserMail[]): Promise<string | null> {
    const [targets, saved] = await Promise.all([providersStore.targets(this.deps.prisma), promptsStore.find(this.deps.prisma, EMAIL_PARSER_PROMPT_ID)]);
    const answer = await this.deps.ai.chat(
      targets,
      [
        { role: 'system', content: saved?.content ?? DEFAULT_EMAIL_PARSER_PROMPT },
        { role: 'user', content: parserUserMessage(codeType, mails) },
      ],
      { json: true },
    );
    return answer?.content ?? null;
  }
}
