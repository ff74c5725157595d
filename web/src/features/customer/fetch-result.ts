import type { CodeTypeYield, ReplyOf, customerParseEmail } from '@bo/proto';
import { ApiError } from '../../lib/api';

export type ParseEmailReply = ReplyOf<typeof customerParseEmail>;

export interface LinkButton {
  caption: string | null;
  url: string;
}

/** What a code-fetch card shows after a fetch. */
export type CardView =
  | { kind: 'code'; code: string }
  | { kind: 'links'; links: LinkButton[] }
  | { kind: 'tv'; approve: string[]; deny: string[] }
  | { kind: 'blocked'; message: string; reason: string }
  | { kind: 'empty'; text: 'noCode' | 'noLinks' | 'noRecent'; detail: string | null };

/** Only https links are ever buttons (the server allows nothing else; a link that is not is dropped, not opened). */
const isHttps = (url: string) => /^https:\/\//i.test(url);

/**
 * A fetch's reply as the card shows it. `result` says how it ended; `data` (document 3 §7's shape)
 * fills in when the result leaves a field empty. Link captions come from result.buttons when it
 * names the link.
 */
export function cardViewOf(yields: CodeTypeYield, reply: ParseEmailReply): CardView {
  const { result, data } = reply;
  if (result.outcome === 'blocked') return { kind: 'blocked', message: result.message_mn, reason: result.reason };
  const empty = (): CardView => {
    if (result.outcome === 'no_recent_emails') return { kind: 'empty', text: 'noRecent', detail: null };
    // 'unavailable' (no AI answered) says so; an ordinary 'nothing of this kind' needs no more than the empty text.
    const detail = result.outcome === 'unavailable' ? result.message_mn || result.reason : null;
    return { kind: 'empty', text: yields === 'code' ? 'noCode' : 'noLinks', detail };
  };
  if (result.outcome !== 'found') return empty();

  if (yields === 'code') {
    const code = result.code ?? (typeof data === 'string' ? data : null);
    return code ? { kind: 'code', code } : empty();
  }
  if (yields === 'tv') {
    const pair = data && typeof data === 'object' && !Array.isArray(data) ? data : { approval: [], denial: [] };
    const approve = (result.approvalLinks.length ? result.approvalLinks : pair.approval).filter(isHttps);
    const deny = (result.denialLinks.length ? result.denialLinks : pair.denial).filter(isHttps);
    return approve.length || deny.length ? { kind: 'tv', approve, deny } : empty();
  }
  const urls = result.links.length ? result.links : Array.isArray(data) ? data : result.buttons.map((button) => button.url);
  const links = [...new Set(urls)].filter(isHttps).map((url) => ({ url, caption: result.buttons.find((button) => button.url === url)?.caption || null }));
  return links.length ? { kind: 'links', links } : empty();
}

/** Why a click was refused for now, and when it may be tried again (the server's `details.retryAt`). */
export interface RetryLater {
  /** tooSoon: this key fetched a moment ago (429); paused: the account's mailbox is left alone after failed sign-ins (503). */
  reason: 'tooSoon' | 'paused';
  at: Date;
}

export function retryLaterOf(error: unknown): RetryLater | null {
  if (!(error instanceof ApiError) || (error.status !== 429 && error.status !== 503)) return null;
  try {
    const at = (JSON.parse(error.body) as { details?: { retryAt?: unknown } } | null)?.details?.retryAt;
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return null;
    return { reason: error.status === 429 ? 'tooSoon' : 'paused', at: new Date(at) };
  } catch {
    return null;
  }
}

/** How the wait is said: seconds while it is short (counting down), else the clock time; 'now' once it has passed. */
export function waitOf(at: Date, now: Date): { in: number } | { at: Date } | 'now' {
  const seconds = Math.ceil((at.getTime() - now.getTime()) / 1000);
  if (seconds <= 0) return 'now';
  return seconds <= 90 ? { in: seconds } : { at };
}
