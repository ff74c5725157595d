import { z } from 'zod';
import type { ServiceCode } from './money';

/**
 * The one-time codes and links customers fetch out of the shared accounts' mailboxes (ADR 15),
 * as document 2 §9 names them. The parser refuses the blocked kinds, by expression and by AI alike.
 */
export const allowedCodeTypes = [
  'NFX_SIGN_IN_CODE',
  'NFX_TEMPORARY_ACCESS_CODE',
  'NFX_UPDATE_HOUSEHOLD',
  'NFX_TV_SIGN_IN_LINK',
  'DP_OTP',
  'AMZ_OTP',
  'HLU_OTP',
  'MAX_OTP',
] as const;
export type CodeType = (typeof allowedCodeTypes)[number];
export const codeTypeSchema = z.enum(allowedCodeTypes, { error: 'Unknown code type' });

export const blockedCodeTypes = ['PASSWORD_RESET', 'SECURITY_VERIFICATION_CODE', 'EMAIL_CHANGE_VERIFICATION'] as const;
export type BlockedCodeType = (typeof blockedCodeTypes)[number];

/** What each allowed type yields: a one-time code, links to open, or the TV approve/deny pair. */
export type CodeTypeYield = 'code' | 'links' | 'tv';

export interface CodeTypeInfo {
  type: CodeType;
  service: ServiceCode;
  yields: CodeTypeYield;
  /** The shape a code of this type must have (document 3 §3: Netflix sign-in codes are 4 digits). */
  codePattern: RegExp | null;
  /** English label for the admin's select and documentation card. */
  label: string;
}

export const codeTypes: Record<CodeType, CodeTypeInfo> = {
  NFX_SIGN_IN_CODE: { type: 'NFX_SIGN_IN_CODE', service: 'NFX', yields: 'code', codePattern: /^\d{4}$/, label: 'Netflix sign-in code' },
  NFX_TEMPORARY_ACCESS_CODE: { type: 'NFX_TEMPORARY_ACCESS_CODE', service: 'NFX', yields: 'links', codePattern: null, label: 'Netflix temporary access link' },
  NFX_UPDATE_HOUSEHOLD: { type: 'NFX_UPDATE_HOUSEHOLD', service: 'NFX', yields: 'links', codePattern: null, label: 'Netflix household update link' },
  NFX_TV_SIGN_IN_LINK: { type: 'NFX_TV_SIGN_IN_LINK', service: 'NFX', yields: 'tv', codePattern: null, label: 'Netflix TV sign-in approve and deny links' },
  DP_OTP: { type: 'DP_OTP', service: 'DPS', yields: 'code', codePattern: /^\d{6}$/, label: 'Disney+ one-time passcode' },
  AMZ_OTP: { type: 'AMZ_OTP', service: 'AMZ', yields: 'code', codePattern: /^\d{6}$/, label: 'Prime Video one-time password' },
  HLU_OTP: { type: 'HLU_OTP', service: 'HLU', yields: 'code', codePattern: /^\d{6}$/, label: 'Hulu one-time passcode' },
  MAX_OTP: { type: 'MAX_OTP', service: 'MAX', yields: 'code', codePattern: /^\d{6}$/, label: 'Max one-time code' },
};

export const blockedCodeTypeLabels: Record<BlockedCodeType, string> = {
  PASSWORD_RESET: 'Password reset',
  SECURITY_VERIFICATION_CODE: 'Account-security verification code',
  EMAIL_CHANGE_VERIFICATION: 'E-mail change verification',
};

/**
 * The services' own mail senders and link domains. A mail counts only when its sender's domain is
 * one of `senderDomains` (or a subdomain); a link is shown only when its host is one of
 * `linkDomains` (or a subdomain) and it is https.
 */
export const serviceMailDomains: Record<ServiceCode, { senderDomains: string[]; linkDomains: string[] }> = {
  NFX: { senderDomains: ['netflix.com'], linkDomains: ['netflix.com'] },
  DPS: { senderDomains: ['disneyplus.com'], linkDomains: ['disneyplus.com'] },
  AMZ: { senderDomains: ['amazon.com', 'primevideo.com'], linkDomains: ['amazon.com', 'primevideo.com'] },
  HLU: { senderDomains: ['hulu.com', 'hulumail.com'], linkDomains: ['hulu.com'] },
  MAX: { senderDomains: ['max.com', 'hbomax.com'], linkDomains: ['max.com', 'hbomax.com'] },
};

/** Whether `host` is `domain` or one of its subdomains. */
export const hostIsWithin = (host: string, domain: string) => {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === domain || h.endsWith(`.${domain}`);
};

/** The domain of `from`, written 'Name <a@b>' or as a bare address; null when it has none. */
function senderDomain(from: string): string | null {
  const address = (/<([^<>]*)>/.exec(from)?.[1] ?? from).trim();
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  return address.slice(at + 1).toLowerCase().replace(/[>\s]+$/, '');
}

/** Whether a mail's sender is at one of the service's own sender domains (the mailbox read and the parser both ask). */
export function senderAllowed(from: string, service: ServiceCode): boolean {
  const domain = senderDomain(from);
  return domain !== null && /^[a-z0-9.-]+$/.test(domain) && serviceMailDomains[service].senderDomains.some((allowed) => hostIsWithin(domain, allowed));
}

/** The customer pages' fetch types (document 3 §7 "Auth and customer") and the code type each asks for. */
export const parseEmailTypes = ['netflix-signin', 'netflix-temp', 'netflix-household', 'netflix-tv', 'disney-otp', 'prime-otp', 'hulu-otp', 'max-otp'] as const;
export type ParseEmailType = (typeof parseEmailTypes)[number];
export const parseEmailTypeSchema = z.enum(parseEmailTypes, { error: 'Unknown e-mail type' });
export const codeTypeOfParseType: Record<ParseEmailType, CodeType> = {
  'netflix-signin': 'NFX_SIGN_IN_CODE',
  'netflix-temp': 'NFX_TEMPORARY_ACCESS_CODE',
  'netflix-household': 'NFX_UPDATE_HOUSEHOLD',
  'netflix-tv': 'NFX_TV_SIGN_IN_LINK',
  'disney-otp': 'DP_OTP',
  'prime-otp': 'AMZ_OTP',
  'hulu-otp': 'HLU_OTP',
  'max-otp': 'MAX_OTP',
};

/** Each service's customer page (document 3 §2). */
export const servicePagePaths: Record<ServiceCode, string> = { NFX: '/netflix', DPS: '/disney', AMZ: '/prime', HLU: '/hulu', MAX: '/max' };

/** How far back a code fetch looks: codes expire within 15 minutes (ADR 15). */
export const CODE_MAIL_WINDOW_MINUTES = 15;

/**
 * How a parse ended:
 * - found: the code or links are in the result;
 * - blocked: the newest matching mail is a kind never shared (password reset, security or e-mail-change verification);
 * - not_found: recent mails from the service, none of the asked kind;
 * - no_recent_emails: nothing from the service in the window;
 * - unavailable: the expressions found nothing and no AI provider answered.
 */
export const parseOutcomes = ['found', 'blocked', 'not_found', 'no_recent_emails', 'unavailable'] as const;
export type ParseOutcome = (typeof parseOutcomes)[number];

/** Document 2 §3's parser test result, plus how it ended and which path answered. */
export const parseResultSchema = z.object({
  found: z.boolean(),
  /** English helper text: why (found, refused, nothing). */
  reason: z.string(),
  /** The same in Mongolian, shown to customers first. */
  message_mn: z.string(),
  code: z.string().nullable(),
  links: z.array(z.string()),
  buttons: z.array(z.object({ caption: z.string(), url: z.string() })),
  outcome: z.enum(parseOutcomes),
  /** For NFX_TV_SIGN_IN_LINK: the approve and deny links. */
  approvalLinks: z.array(z.string()),
  denialLinks: z.array(z.string()),
  /** The refused kind when outcome is blocked. */
  blockedType: z.enum(blockedCodeTypes).nullable(),
  /** Which path answered: the regular expressions, the AI, or neither. */
  source: z.enum(['expressions', 'ai', 'none']),
});
export type ParseResult = z.infer<typeof parseResultSchema>;

/** One mail as the parser reads it (newest first in a request). */
export const parserMailSchema = z.object({
  /** IMAP UID, or 0 for a pasted test mail. */
  uid: z.number().int().min(0),
  /** The From address (bare address), or '' for a pasted test mail. */
  from: z.string().max(320),
  subject: z.string().max(2000),
  /** ISO time the mail arrived. */
  date: z.string(),
  /** The plain-text body (from the HTML when the mail has none). */
  text: z.string().max(200_000),
  /** The HTML body, '' when none; links and button captions are read from it. */
  html: z.string().max(500_000),
});
export type ParserMail = z.infer<typeof parserMailSchema>;
