import type { MailAccount } from './dovecot';
import type { MailKind } from './emails';
import type { DeliverInput } from './state';

/** The shop's mailboxes that the streaming services write to. */
export const DEFAULT_ACCOUNTS: MailAccount[] = [
  { username: 'netflix.keys01@streamshop.test', password: 'keys01-pass' },
  { username: 'netflix.keys02@streamshop.test', password: 'keys02-pass' },
  { username: 'otp.keys03@streamshop.test', password: 'keys03-pass' },
];

/** Per default account: the kinds it already holds and how many minutes ago each arrived. */
const HISTORY: [MailKind, number][][] = [
  [['PASSWORD_RESET', 180], ['DP_OTP', 45], ['NFX_UPDATE_HOUSEHOLD', 25], ['NFX_SIGN_IN_CODE', 10]],
  [['SECURITY_VERIFICATION_CODE', 240], ['AMZ_OTP', 60], ['NFX_TV_SIGN_IN_LINK', 20], ['NFX_TEMPORARY_ACCESS_CODE', 5]],
  [['EMAIL_CHANGE_VERIFICATION', 300], ['MAX_OTP', 30], ['HLU_OTP', 15]],
];

/** The mails the default accounts start with, timed relative to `now`. */
export function defaultSeed(accounts: MailAccount[], now: Date): DeliverInput[] {
  return accounts.flatMap((account, i) =>
    (HISTORY[i % HISTORY.length] ?? []).map(([kind, minutesAgo]) => ({ account: account.username, kind, at: new Date(now.getTime() - minutesAgo * 60_000) })),
  );
}
