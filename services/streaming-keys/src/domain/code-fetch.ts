import { codeTypes, streamingServiceOf, type CodeType, type ParseOutcome, type ParseResult, type ParserMail, type ServiceCode } from '@bo/proto';

/**
 * How a customer's code fetch ended, as the fetch log records it: the parser's outcome, or why
 * the fetch was refused or could not be done.
 */
export type FetchOutcome =
  | ParseOutcome
  | 'key_not_found'
  | 'choose_key'
  | 'wrong_service'
  | 'key_expired'
  | 'key_inactive'
  | 'not_configured'
  | 'no_mailbox_password'
  | 'mailbox_sign_in_failed'
  | 'mailbox_unavailable'
  | 'mailbox_failed'
  | 'parser_unavailable'
  /** The key fetched less than CODE_FETCH_KEY_INTERVAL_MS ago. */
  | 'too_soon'
  /** The account's mailbox is paused after failed sign-ins: nobody signs in to it for now. */
  | 'mailbox_paused'
  /** Anything else (a bug, the database): the request answered 500. */
  | 'failed';

/** The mails a fetch reads: the newest few of the window (ADR 15). */
export const RECENT_MAILS_MAX = 10;

/**
 * ai-chat accepts request bodies up to the platform's 1 MiB: the newest mails go first and the
 * older ones are left out once they would not fit.
 */
const PARSER_BODY_BUDGET_BYTES = 900_000;
const SHRUNK_HTML_CHARS = 200_000;

interface KeyLike {
  id: number;
  service: string;
  expiresAt: Date;
  isActive: number;
}

/**
 * Which of the session's keys a fetch is for, or why none: the one named (it must be the
 * session's), else the session's only key, else its only key of the type's service.
 */
export function chooseKey<K extends KeyLike>(keys: K[], service: ServiceCode, keyId: number | undefined): K | 'key_not_found' | 'choose_key' {
  if (keyId !== undefined) return keys.find((key) => key.id === keyId) ?? 'key_not_found';
  if (keys.length === 0) return 'key_not_found';
  if (keys.length === 1) return keys[0];
  const ofService = keys.filter((key) => key.service === service);
  return ofService.length === 1 ? ofService[0] : 'choose_key';
}

/** Why a key may not fetch codes now (document 3 §4's Expired, and a deactivated key), or null. */
export function keyRefusal(key: KeyLike, now = new Date()): 'key_expired' | 'key_inactive' | null {
  if (key.expiresAt.getTime() <= now.getTime()) return 'key_expired';
  return key.isActive === 1 ? null : 'key_inactive';
}

export const wrongServiceMessage = (service: ServiceCode) => `This key is for ${streamingServiceOf(service).name}`;

/** Document 3 §7: a code, the links, or for the TV type the approve and deny links; null when nothing was found. */
export function fetchedData(codeType: CodeType, result: ParseResult): string | string[] | { approval: string[]; denial: string[] } | null {
  if (!result.found) return null;
  switch (codeTypes[codeType].yields) {
    case 'code':
      return result.code;
    case 'links':
      return result.links;
    case 'tv':
      return { approval: result.approvalLinks, denial: result.denialLinks };
  }
}

const jsonBytes = (mail: ParserMail) => Buffer.byteLength(JSON.stringify(mail));

/** The newest mails that fit one parse request; the newest is always sent, its HTML shortened if it alone is too large. */
export function fitParserBudget(mails: ParserMail[], budget = PARSER_BODY_BUDGET_BYTES): ParserMail[] {
  const kept: ParserMail[] = [];
  let used = 0;
  for (const mail of mails) {
    const fitting = kept.length === 0 && jsonBytes(mail) > budget ? { ...mail, html: mail.html.slice(0, SHRUNK_HTML_CHARS), text: mail.text.slice(0, SHRUNK_HTML_CHARS) } : mail;
    const size = jsonBytes(fitting);
    if (kept.length > 0 && used + size > budget) break;
    kept.push(fitting);
    used += size;
  }
  return kept;
}

/** A wait as the refusal says it: seconds up to a minute and a half, else whole minutes. */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
