import { escapeHtml, htmlTable, type PageSection } from '@bo/sim-kit';
import { MAIL_KINDS } from './emails';
import type { MailboxState } from './state';

/** The /__sim/ page: IMAP details, accounts, every delivered message, and a form to deliver one. */
export function mailboxSections(state: MailboxState, imap: { host: string; port: number }): PageSection[] {
  const options = (values: readonly string[]) => values.map((v) => `<option>${escapeHtml(v)}</option>`).join('');
  const form = `<form id="deliver" onsubmit="event.preventDefault();const f=new FormData(this);const body={account:f.get('account'),kind:f.get('kind')};if(f.get('at'))body.at=new Date(f.get('at')).toISOString();if(f.get('code'))body.code=f.get('code');simAction('/__sim/deliver',body)">
<label>Account <select name="account">${options(state.accounts.map((a) => a.username))}</select></label>
<label>Kind <select name="kind">${options(MAIL_KINDS)}</select></label>
<label>Arrived at <input type="datetime-local" name="at"> (empty: now)</label>
<label>Code <input name="code" size="8" placeholder="random"></label>
<button type="submit">Deliver</button></form>`;
  const messages = state.messages().reverse().map((m) => ({ ...m, links: m.links.map((l) => `${l.label}: ${l.url}`).join('\n') }));
  return [
    {
      title: 'IMAP server (Dovecot)',
      html: `<p>IMAP on <b>${escapeHtml(imap.host)}:${imap.port}</b>, no TLS, plain LOGIN. Accounts:</p>${htmlTable(state.accounts.map((a) => ({ ...a, messages: state.messages(a.username).length })), ['username', 'password', 'messages'])}`,
    },
    { title: 'Deliver an e-mail', html: form },
    { title: `Delivered messages (${messages.length}, newest first)`, html: htmlTable(messages, ['at', 'account', 'kind', 'blocked', 'from', 'subject', 'code', 'links']) },
  ];
}
