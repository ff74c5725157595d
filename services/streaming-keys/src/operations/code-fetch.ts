import { LRUCache } from 'lru-cache';
import { AppError, badRequest, Counter, forbidden, notFound, serviceUnavailable, ServiceCallError, type Identity, type Logger } from '@bo/platform';
import {
  CODE_MAIL_WINDOW_MINUTES, codeTypeOfParseType, codeTypes, type CodeType, type ParseEmailType, type ParseResult, type ParserMail, type ServiceCode,
} from '@bo/proto';
import type { AiChatClient } from '../clients/ai-chat';
import { MailboxSignInFailed, MailboxUnavailable, type MailboxReader, type MailHeader } from '../clients/mailbox';
import { chooseKey, fetchedData, fitParserBudget, keyRefusal, RECENT_MAILS_MAX, waitInWords, wrongServiceMessage, type FetchOutcome } from '../domain/code-fetch';
import type { PrismaClient, StreamingKey } from '../generated/prisma/client';
import { codeFetchStore, type CodeFetchRecord } from '../store/code-fetch-store';
import { MAILBOX_FAILURES_MAX, tryAgainAt, type FetchLimits } from './fetch-limits';
import type { KeyPool } from './key-pool';
import { sessionKeys } from './customer-keys';

const WINDOW_MS = CODE_MAIL_WINDOW_MINUTES * 60_000;
/** Remembered parse outcomes (per mailbox, UID validity, type and candidate UIDs) and decoded mails. */
const OUTCOMES_MAX = 1_000;
const MAILS_MAX = 1_000;
/** Decoded mails kept in memory, counted in characters of their bodies. */
const MAILS_MAX_CHARS = 50_000_000;

/** A fetch refused or failed, with what the fetch log records for it. */
class FetchFailed extends AppError {
  constructor(
    readonly outcome: FetchOutcome,
    error: AppError,
  ) {
    super(error.status, error.code, error.message, error.details);
  }
}
const fail = (outcome: FetchOutcome, error: AppError) => new FetchFailed(outcome, error);

const tooSoon = (at: Date) => tryAgainAt(429, 'too_soon', `This key's mailbox was checked a moment ago. Please try again in ${waitInWords(at.getTime() - Date.now())}.`, at);
const mailboxPaused = (at: Date) =>
  tryAgainAt(503, 'mailbox_paused', `Signing in to this account's mailbox failed ${MAILBOX_FAILURES_MAX} times, so it is left alone for now. Please try again in ${waitInWords(at.getTime() - Date.now())}.`, at);

export interface CodeFetchReply {
  success: boolean;
  data: ReturnType<typeof fetchedData>;
  result: ParseResult;
}

/**
 * A customer's code fetch (ADR 15): the session's key, still valid, of the type's service; its
 * account's mailbox read over IMAP (the service's own senders, the last 15 minutes, newest 10);
 * ai-chat's parse of those mails. Outcomes are remembered, so a repeat fetch with no new mail
 * reads envelopes only. Every fetch, refused ones too, is one row of the fetch log and one log
 * line, neither with a code or link.
 */
export class CodeFetch {
  private readonly outcomes = new LRUCache<string, ParseResult>({ max: OUTCOMES_MAX, ttl: WINDOW_MS });
  private readonly mails = new LRUCache<string, ParserMail>({
    max: MAILS_MAX,
    maxSize: MAILS_MAX_CHARS,
    sizeCalculation: (mail) => mail.text.length + mail.html.length + mail.subject.length + 1,
    ttl: WINDOW_MS,
  });
  /** Exported on the service's /metrics (see metrics), and what proves a repeat fetch downloads nothing. */
  private readonly downloaded = new Counter({ name: 'code_fetch_mails_downloaded_total', help: 'Mails downloaded and decoded for customer code fetches', registers: [] });
  private readonly remembered = new Counter({ name: 'code_fetch_remembered_total', help: 'Customer code fetches answered with a remembered outcome', registers: [] });
  private readonly shared = new Counter({ name: 'code_fetch_shared_total', help: 'Customer code fetches that joined a read of the same mailbox already in flight', registers: [] });
  readonly metrics = [this.downloaded, this.remembered, this.shared];
  /**
   * Reads in flight per mailbox and type: a customer pressing the button again, or in two tabs,
   * joins the read already running instead of signing in to the mailbox once more (mail servers
   * throttle and lock accounts that log in too often).
   */
  private readonly inFlight = new Map<string, Promise<{ result: ParseResult; remembered: boolean }>>();
  /** Mailboxes whose password was refused (lower-cased): said once at warn, again only after a sign-in worked. */
  private readonly refused = new LRUCache<string, true>({ max: OUTCOMES_MAX });

  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      pool: KeyPool;
      /** Null when MAILBOX_IMAP_URL or AI_CHAT_URL is not set. */
      mailbox: MailboxReader | null;
      aiChat: AiChatClient | null;
      limits: FetchLimits;
      logger: Logger;
    },
  ) {}

  async fetch(identity: Identity | null, request: { type: ParseEmailType; keyId?: number }): Promise<CodeFetchReply> {
    const keys = await sessionKeys(this.deps.prisma, identity);
    const log: CodeFetchRecord = { customerEmail: identity!.email ?? '', keyId: null, parseType: request.type, outcome: 'key_not_found', found: false, source: null };
    try {
      const codeType = codeTypeOfParseType[request.type];
      const key = this.chosenKey(keys, codeType, request.keyId);
      log.keyId = key.id;
      this.assertUsable(key, codeType);
      const { result, remembered } = await this.readOnce(key, codeType);
      Object.assign(log, { outcome: result.outcome, found: result.found, source: remembered ? 'remembered' : result.source });
      return { success: true, data: fetchedData(codeType, result), result };
    } catch (error) {
      log.outcome = error instanceof FetchFailed ? error.outcome : 'failed';
      throw error;
    } finally {
      await codeFetchStore.record(this.deps.prisma, log);
      this.deps.logger.info({ ...log }, 'code fetch');
    }
  }

  /** The session's key the fetch is for (ADR 15), or the refusal saying why there is none. */
  private chosenKey(keys: StreamingKey[], codeType: CodeType, keyId: number | undefined): StreamingKey {
    const key = chooseKey(keys, codeTypes[codeType].service, keyId);
    if (key === 'key_not_found') throw fail(key, notFound('Key not found'));
    if (key === 'choose_key') throw fail(key, badRequest('Choose which key'));
    return key;
  }

  /** A key fetches only its own service's codes, and only while it is valid. */
  private assertUsable(key: StreamingKey, codeType: CodeType): void {
    if (key.service !== codeTypes[codeType].service) throw fail('wrong_service', badRequest(wrongServiceMessage(key.service as ServiceCode)));
    const refusal = keyRefusal(key);
    if (refusal === 'key_expired') throw fail(refusal, forbidden('Your key has expired'));
    if (refusal === 'key_inactive') throw fail(refusal, forbidden('Your key is not active'));
  }

  /** `read`, or the same read already in flight for this mailbox and type. */
  private readOnce(key: StreamingKey, codeType: CodeType): Promise<{ result: ParseResult; remembered: boolean }> {
    const flight = `${key.email.toLowerCase()}\n${key.service}\n${codeType}`;
    const running = this.inFlight.get(flight);
    if (running) {
      this.shared.inc();
      return running;
    }
    const read = this.read(key, codeType).finally(() => this.inFlight.delete(flight));
    this.inFlight.set(flight, read);
    return read;
  }

  /** The parse of the key's account's recent mails: remembered, or downloaded and parsed now. */
  private async read(key: StreamingKey, codeType: CodeType): Promise<{ result: ParseResult; remembered: boolean }> {
    const { mailbox, aiChat, pool, logger } = this.deps;
    if (!mailbox || !aiChat) throw fail('not_configured', serviceUnavailable('Code fetching is not configured'));
    const service = key.service as ServiceCode;
    const password = await pool.mailboxPasswordOf(key.email, service);
    if (password === null) throw fail('no_mailbox_password', serviceUnavailable('The mailbox of this account is not set up yet. Please contact the shop.'));
    // What a click may cost (issue 18): nothing while the mailbox is paused, one read per key per interval.
    const paused = await this.deps.limits.mailboxPausedUntil(key.email);
    if (paused) throw fail('mailbox_paused', mailboxPaused(paused));
    const next = await this.deps.limits.takeTurn(`fetch:${key.id}`);
    if (next) throw fail('too_soon', tooSoon(next));

    const since = new Date(Date.now() - WINDOW_MS);
    let seen: { remembered: ParseResult } | { outcomeKey: string; mails: ParserMail[] };
    try {
      seen = await mailbox.withRecentMails({ user: key.email, password }, { since, service, limit: RECENT_MAILS_MAX }, async (open) => {
        const mailboxKey = `${key.email}\n${open.uidValidity}`;
        const outcomeKey = `${mailboxKey}\n${codeType}\n${open.recent.map((mail) => mail.uid).join(',')}`;
        const remembered = this.outcomes.get(outcomeKey);
        if (remembered) return { remembered };
        const mailKey = (mail: MailHeader) => `${mailboxKey}\n${mail.uid}`;
        const fresh = await open.download(open.recent.filter((mail) => !this.mails.has(mailKey(mail))));
        this.downloaded.inc(fresh.length);
        for (const mail of fresh) this.mails.set(`${mailboxKey}\n${mail.uid}`, mail);
        const mails = open.recent.map((mail) => this.mails.get(mailKey(mail))).filter((mail): mail is ParserMail => mail !== undefined);
        return { outcomeKey, mails };
      });
    } catch (error) {
      if (error instanceof MailboxSignInFailed) {
        // The shop's setting, not a bug: the admin sets the right password; customers are told to ask the shop.
        const pausedUntil = await this.deps.limits.signInFailed(key.email);
        const mailbox = key.email.toLowerCase();
        logger[this.refused.has(mailbox) ? 'debug' : 'warn'](
          { mailbox: key.email, pausedUntil },
          `the mailbox of ${key.email} refused its password: set the account's mailbox password on /streaming-keys`,
        );
        this.refused.set(mailbox, true);
        if (pausedUntil) throw fail('mailbox_paused', mailboxPaused(pausedUntil));
        throw fail('mailbox_sign_in_failed', new AppError(502, 'mailbox_sign_in_failed', 'The mailbox of this account refused its password. Please contact the shop.'));
      }
      if (error instanceof MailboxUnavailable) {
        logger.warn({ err: error, mailbox: key.email }, 'mailbox unavailable');
        throw fail('mailbox_unavailable', serviceUnavailable('The mailbox could not be reached. Please try again in a minute.'));
      }
      logger.error({ err: error, mailbox: key.email }, 'mailbox read failed');
      throw fail('mailbox_failed', new AppError(502, 'mailbox_failed', 'The mailbox of this account could not be read'));
    }
    await this.deps.limits.signInSucceeded(key.email);
    if (this.refused.delete(key.email.toLowerCase())) logger.info({ mailbox: key.email }, `the mailbox of ${key.email} takes its password again`);
    if ('remembered' in seen) {
      this.remembered.inc();
      return { result: seen.remembered, remembered: true };
    }

    let parsed: { result: ParseResult; cacheable: boolean };
    try {
      parsed = await aiChat.parse(codeType, fitParserBudget(seen.mails));
    } catch (error) {
      if (!(error instanceof ServiceCallError)) throw error;
      // ai-chat away or failing is its own state (its /ready, its alerts): the customer is told to try again.
      logger.warn({ err: error }, 'ai-chat could not parse the mails');
      throw fail('parser_unavailable', serviceUnavailable('The code service is unavailable. Please try again in a minute.'));
    }
    // An outcome that depended on an AI that did not answer is asked again next time.
    if (parsed.cacheable) this.outcomes.set(seen.outcomeKey, parsed.result);
    return { result: parsed.result, remembered: false };
  }
}
