import { randomUUID } from 'node:crypto';
import { composeMail, type MailKind, type MailLink } from './emails';
import { createMaildir, deliverToMaildir, emptyMaildir, maildirOf, type MailOwner } from './maildir';
import { toRfc822 } from './rfc822';
import type { MailAccount } from './dovecot';

export interface DeliverInput {
  account: string;
  kind: MailKind;
  /** When the mail arrived (Date header and IMAP INTERNALDATE); now when absent. */
  at?: Date;
  /** Fixes the one-time code instead of a random one. */
  code?: string;
}

export interface DeliveredMail {
  id: string;
  account: string;
  kind: MailKind;
  blocked: boolean;
  from: string;
  subject: string;
  at: string;
  messageId: string;
  code: string | null;
  links: MailLink[];
  file: string;
}

/** What has been delivered to which mailbox; delivery writes real maildir files Dovecot serves. */
export class MailboxState {
  private delivered: DeliveredMail[] = [];

  constructor(
    readonly accounts: MailAccount[],
    private readonly mailRoot: string,
    private readonly owner: MailOwner,
    private readonly now: () => Date,
  ) {}

  async createMailboxes(): Promise<void> {
    for (const account of this.accounts) await createMaildir(maildirOf(this.mailRoot, account.username), this.owner);
  }

  async deliver(input: DeliverInput): Promise<DeliveredMail> {
    if (!this.accounts.some((a) => a.username === input.account)) throw new UnknownAccountError(input.account);
    const at = input.at ?? this.now();
    const mail = composeMail(input.kind, input.account, input.code);
    const { raw, messageId } = toRfc822(mail, at);
    const file = await deliverToMaildir(maildirOf(this.mailRoot, input.account), raw, at, this.owner);
    const record: DeliveredMail = { id: randomUUID(), account: input.account, kind: mail.kind, blocked: mail.blocked, from: mail.from, subject: mail.subject, at: at.toISOString(), messageId, code: mail.code, links: mail.links, file };
    this.delivered.push(record);
    return record;
  }

  /** Oldest first, as the mailbox lists them. */
  messages(account?: string): DeliveredMail[] {
    return this.delivered.filter((m) => !account || m.account === account).sort((a, b) => a.at.localeCompare(b.at));
  }

  async clear(): Promise<void> {
    for (const account of this.accounts) await emptyMaildir(maildirOf(this.mailRoot, account.username));
    this.delivered = [];
  }
}

export class UnknownAccountError extends Error {
  constructor(readonly account: string) {
    super(`no mailbox for ${account}`);
  }
}
