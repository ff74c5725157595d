import { actionButton, escapeHtml, htmlTable, type PageSection } from '@bo/sim-kit';
import { qpayBases } from './api';
import type { QpayState } from './state';

/** The /__sim/ page: how to connect, invoices with pay buttons, callbacks and what our server answered. */
export function qpaySections(state: QpayState): PageSection[] {
  const now = Date.now();
  const liveTokens = [...state.tokens.values()].filter((t) => !t.revoked && t.expiresAtMs > now);
  const invoices = [...state.invoices.values()].reverse().map((invoice) => {
    const pay = `/__sim/invoices/${invoice.invoiceId}/pay`;
    const open = invoice.status === 'OPEN';
    return {
      invoice_id: invoice.invoiceId,
      env: invoice.env,
      sender_invoice_no: invoice.senderInvoiceNo,
      description: invoice.description,
      amount: invoice.amount,
      paid: state.paidAmount(invoice),
      status: state.statusOf(invoice),
      callback_url: invoice.callbackUrl,
      actions: open
        ? [
            actionButton('Pay (GET callback)', pay, { callback: 'get' }),
            actionButton('Pay (POST callback)', pay, { callback: 'post' }),
            actionButton('Pay, callback lost', pay, { callback: 'none' }),
            actionButton('Pay, 3 duplicate callbacks', pay, { duplicates: 3 }),
            actionButton('Pay, callback in 5 s', pay, { delayMs: 5000 }),
            actionButton('Pay half', pay, { amount: Math.max(1, Math.floor((invoice.amount - state.paidAmount(invoice)) / 2)) }),
          ].join('')
        : '',
    };
  });
  const invoiceRows = invoices.map(({ actions, ...row }) => row);
  const table = htmlTable(invoiceRows, Object.keys(invoiceRows[0] ?? {}));
  // Buttons are HTML, so they go in their own list rather than through the escaping table.
  const buttons = invoices
    .filter((i) => i.actions)
    .map((i) => `<p><code>${escapeHtml(i.sender_invoice_no)}</code> ${i.actions}</p>`)
    .join('');
  const presets = (['system_busy', 'bad_gateway_html', 'slow', 'reset'] as const)
    .map((kind) => actionButton(`Next call: ${kind}`, '/__sim/faults/preset', { kind, times: 1 }))
    .join('');
  return [
    {
      title: 'Connection',
      html: `<p>Production base <code>${qpayBases.production}</code>, sandbox base <code>${qpayBases.sandbox}</code> (prefix with this server's URL).
Clients: ${escapeHtml(state.options.clients.map((c) => `${c.clientId} / ${c.clientSecret}`).join(', '))}; invoice codes: ${escapeHtml(state.options.invoiceCodes.join(', '))}.
Token TTL ${state.options.tokenTtlSeconds} s; paid status ${state.options.paidStatus}; live tokens ${liveTokens.length}.</p>
${actionButton('Revoke access tokens', '/__sim/tokens/revoke', { kind: 'access' })}${actionButton('Create a test invoice', '/__sim/invoices', {})}${presets}`,
    },
    { title: 'Invoices (newest first)', html: table + buttons },
    { title: 'Callbacks sent and what the merchant answered', html: htmlTable(state.callbacks.slice(0, 50) as never, ['at', 'method', 'url', 'copy', 'status', 'body', 'error', 'ms']) },
  ];
}
