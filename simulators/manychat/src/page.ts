import { escapeHtml, htmlTable, type PageSection } from '@bo/sim-kit';
import type { ManyChatState } from './state';

/** A form that sends a message as a subscriber through the driver, then reloads. */
function sendForm(state: ManyChatState): string {
  const options = [...state.subscribers.values()]
    .map((s) => `<option value="${escapeHtml(s.id)}">${escapeHtml(`${s.first_name} ${s.last_name} (${s.id}, ${s.channel})`)}</option>`)
    .join('');
  return `<form onsubmit="event.preventDefault();const f=new FormData(this);const b={subscriberId:f.get('subscriberId'),text:f.get('text')};if(f.get('url'))b.url=f.get('url');fetch('/__sim/driver/send',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(b)}).then(async r=>{if(!r.ok)alert(await r.text());location.reload();});">
<select name="subscriberId">${options}</select>
<input name="text" placeholder="message text" required size="40">
<input name="url" placeholder="webhook URL (default: ${escapeHtml(state.options.webhookUrl ?? 'none set')})" size="48">
<button type="submit">Send as subscriber</button></form>
<p class="empty">Timeout ${state.options.webhookTimeoutMs} ms; body template: <code>${escapeHtml(state.options.bodyTemplate)}</code></p>`;
}

/** Approves a utility template by name (as Meta's review would), then reloads. */
function templateForm(): string {
  return `<form onsubmit="event.preventDefault();const f=new FormData(this);fetch('/__sim/templates',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({name:f.get('name')})}).then(async r=>{if(!r.ok)alert(await r.text());location.reload();});">
<input name="name" placeholder="template_name (lowercase, digits, _)" required size="40">
<button type="submit">Approve template</button></form>`;
}

export function manyChatSections(state: ManyChatState): PageSection[] {
  const subscribers = [...state.subscribers.values()].map((s) => ({
    id: s.id,
    name: `${s.first_name} ${s.last_name}`,
    channel: s.channel,
    last_interaction: s.last_interaction,
    in_24h_window: state.withinWindow(s) ? 'yes' : 'no',
    tags: state.tags.filter((t) => s.tagIds.includes(t.id)).map((t) => t.name).join(', '),
    fields: Object.fromEntries(state.fields.filter((f) => s.fields[f.id] !== undefined).map((f) => [f.name, s.fields[f.id]])),
  }));
  const exchanges = state.exchanges.slice(0, 30).map((e) => ({
    ...e,
    reply: e.reply ?? e.responseText,
    violations: e.violations.join('; '),
    actions: e.appliedActions,
  }));
  return [
    { title: `Page ${state.page.name} (${state.page.id}) — API key: ${state.apiKey}`, html: htmlTable(subscribers, ['id', 'name', 'channel', 'last_interaction', 'in_24h_window', 'tags', 'fields']) },
    { title: 'Send a message as a subscriber (calls our webhook)', html: sendForm(state) },
    { title: 'Webhook exchanges (newest first)', html: htmlTable(exchanges, ['at', 'subscriberId', 'text', 'status', 'durationMs', 'outcome', 'failure', 'violations', 'reply', 'actions']) },
    { title: 'Delivered messages (newest first)', html: htmlTable(state.messages.slice(0, 50) as never, ['at', 'subscriberId', 'source', 'messageTag', 'templateName', 'flowNs', 'content']) },
    {
      title: 'Approved utility templates (sendTemplate; the only way outside the 24-hour window)',
      html: htmlTable([...state.templates.values()].map((t) => ({ name: t.name, variables: t.variables?.join(', ') ?? 'any' })), ['name', 'variables']) + templateForm(),
    },
    { title: 'Flows, tags, custom fields', html: htmlTable(state.flows as never, ['ns', 'name', 'folder_id']) + htmlTable(state.tags as never, ['id', 'name']) + htmlTable(state.fields as never, ['id', 'name', 'type', 'description']) },
  ];
}
