import { ImapFlow } from 'imapflow';
import PostalMime from 'postal-mime';
import type { Logger } from '@bo/platform';
import { senderAllowed, type ParserMail, type ServiceCode } from '@bo/proto';

/** At most this many of the newest UIDs the search finds are looked at (their envelopes only). */
const NEWEST_UIDS = 50;
/** A mail's source is read up to this size: the codes are near the top, attachments are not wanted. */
const SOURCE_MAX_BYTES = 2 * 1024 * 1024;
/** The parser's limits per mail (proto's parserMailSchema). */
const TEXT_MAX = 200_000;
const HTML_MAX = 500_000;
const SUBJECT_MAX = 2000;
/** A LOGOUT the server does not answer quickly is not waited for: the socket is closed anyway. */
const LOGOUT_WAIT_MS = 1_000;

/** Host and port of imap://host[:143] or imaps://host[:993]. */
export function imapAddress(url: string): { host: string; port: number; secure: boolean } {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'imaps:';
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : secure ? 993 : 143, secure };
}

/** The mailbox refused the account e-mail and its stored mailbox password. */
export class MailboxSignInFailed extends Error {
  constructor(user: string) {
    super(`the mailbox server refused the sign-in of ${user}`);
    this.name = 'MailboxSignInFailed';
  }
}

/** The mailbox server could not be reached, or did not finish in time. */
export class MailboxUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailboxUnavailable';
  }
}

/** A recent mail as its envelope tells it (nothing downloaded yet). */
export interface MailHeader {
  uid: number;
  /** The bare sender address, lower-cased. */
  from: string;
  subject: string;
  /** When it arrived (IMAP INTERNALDATE). */
  date: Date;
}

/** What a read sees of the open INBOX. */
export interface OpenMailbox {
  /** Changes when the server renumbers the mailbox; a UID means the same mail only under the same value. */
  uidValidity: string;
  /** The service's mails of the window, newest first, at most the filter's limit. */
  recent: MailHeader[];
  /** Downloads and decodes these mails (of `recent`), each into what the parser reads. */
  download(mails: MailHeader[]): Promise<ParserMail[]>;
}

export interface RecentFilter {
  /** Mails that arrived before this are not read. */
  since: Date;
  /** Only mails from this service's own senders count. */
  service: ServiceCode;
  limit: number;
}

/**
 * Reads the accounts' mailboxes over IMAP (ADR 15): each account e-mail signs in with its own
 * mailbox password, INBOX is opened read-only (nothing is marked seen), and only the server's
 * search result of the window is looked at, so a mailbox of thousands costs no more than ten.
 */
export class MailboxReader {
  private readonly address: ReturnType<typeof imapAddress>;

  constructor(private readonly options: { url: string; timeoutMs: number; logger: Logger }) {
    this.address = imapAddress(options.url);
  }

  /**
   * Signs in, lists the recent mails matching `filter`, lets `use` download what it needs, and
   * always signs out and closes the connection, also when anything fails or the time is up.
   */
  async withRecentMails<T>(login: { user: string; password: string }, filter: RecentFilter, use: (mailbox: OpenMailbox) => Promise<T>): Promise<T> {
    const { timeoutMs, logger } = this.options;
    const client = new ImapFlow({
      ...this.address,
      auth: { user: login.user, pass: login.password },
      logger: false,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      disableAutoIdle: true,
    });
    // A socket error after a command failed is also emitted; without a listener it would crash the process.
    client.on('error', (error: Error) => logger.debug({ err: error, mailbox: login.user }, 'mailbox connection error'));

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new MailboxUnavailable(`the mailbox of ${login.user} did not answer within ${timeoutMs} ms`));
        client.close();
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.session(client, login.user, filter, use), deadline]);
    } finally {
      clearTimeout(timer);
      if (client.usable) await Promise.race([client.logout().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
      client.close();
    }
  }

  private async session<T>(client: ImapFlow, user: string, filter: RecentFilter, use: (mailbox: OpenMailbox) => Promise<T>): Promise<T> {
    try {
      await client.connect();
    } catch (error) {
      if ((error as { authenticationFailed?: boolean }).authenticationFailed) throw new MailboxSignInFailed(user);
      throw new MailboxUnavailable(`the mailbox server ${this.address.host}:${this.address.port} is not reachable (${(error as Error).message})`);
    }
    const opened = await client.mailboxOpen('INBOX', { readOnly: true });
    // imapflow sends SINCE as WITHIN's YOUNGER <seconds> when the server has WITHIN (Dovecot does):
    // to the second, where SINCE alone is a whole day.
    const found = (await client.search({ since: filter.since }, { uid: true })) || [];
    const newest = found.sort((a, b) => a - b).slice(-NEWEST_UIDS);
    const headers: MailHeader[] = [];
    if (newest.length > 0) {
      for await (const message of client.fetch(newest.join(','), { uid: true, envelope: true, internalDate: true }, { uid: true })) {
        const from = message.envelope?.from?.[0]?.address?.toLowerCase() ?? '';
        const date = message.internalDate instanceof Date ? message.internalDate : new Date(message.internalDate ?? 0);
        headers.push({ uid: message.uid, from, subject: message.envelope?.subject ?? '', date });
      }
    }
    const recent = headers
      .filter((mail) => mail.date.getTime() >= filter.since.getTime() && senderAllowed(mail.from, filter.service))
      .sort((a, b) => b.date.getTime() - a.date.getTime() || b.uid - a.uid)
      .slice(0, filter.limit);
    return use({
      uidValidity: String(opened.uidValidity),
      recent,
      download: (mails) => this.download(client, mails),
    });
  }

  private async download(client: ImapFlow, mails: MailHeader[]): Promise<ParserMail[]> {
    if (mails.length === 0) return [];
    const sources = new Map<number, Buffer>();
    for await (const message of client.fetch(mails.map((mail) => mail.uid).join(','), { uid: true, source: { maxLength: SOURCE_MAX_BYTES } }, { uid: true })) {
      if (message.source) sources.set(message.uid, message.source);
    }
    const decoded: ParserMail[] = [];
    for (const mail of mails) {
      const source = sources.get(mail.uid);
      // Expunged between the listing and the download: nothing to read.
      if (!source) continue;
      const email = await PostalMime.parse(source);
      decoded.push({
        uid: mail.uid,
        from: mail.from.slice(0, 320),
        subject: (email.subject ?? mail.subject).slice(0, SUBJECT_MAX),
        date: mail.date.toISOString(),
        text: (email.text ?? '').slice(0, TEXT_MAX),
        html: (email.html ?? '').slice(0, HTML_MAX),
      });
    }
    return decoded;
  }
}
