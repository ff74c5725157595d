/** The small human page every simulator serves at /__sim/: sections of plain HTML, no framework. */
export interface PageSection {
  title: string;
  html: string;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A table from rows of objects; columns are the given keys. */
export function htmlTable(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '<p class="empty">Nothing yet.</p>';
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${columns.map((c) => `<td>${escapeHtml(typeof row[c] === 'object' ? JSON.stringify(row[c]) : row[c])}</td>`).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A button that POSTs a JSON body to a /__sim/ action and reloads the page. */
export function actionButton(label: string, path: string, body: unknown = {}): string {
  // The whole call is escaped, so a quote in the path or body cannot end the attribute.
  return `<button onclick="${escapeHtml(`simAction(${JSON.stringify(path)}, ${JSON.stringify(body)})`)}">${escapeHtml(label)}</button>`;
}

export function renderPage(title: string, sections: PageSection[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} simulator</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1a202c}
header{background:#2d3748;color:#fff;padding:12px 20px}header small{opacity:.7}
main{padding:16px 20px;display:grid;gap:16px}
section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;overflow-x:auto}
h2{font-size:16px;margin:0 0 8px}table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #edf2f7;padding:4px 8px;text-align:left;vertical-align:top;max-width:420px;overflow-wrap:break-word}
button{margin:2px;padding:4px 10px;border:1px solid #3182ce;background:#ebf8ff;border-radius:4px;cursor:pointer}
.empty{color:#718096}
</style>
<script>
async function simAction(path, body){const r=await fetch(path,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(body)});if(!r.ok)alert(r.status+': '+await r.text());location.reload();}
</script></head><body>
<header><strong>${escapeHtml(title)}</strong> <small>simulator — stands in for the real service; nothing here leaves this machine</small></header>
<main>${sections.map((s) => `<section><h2>${escapeHtml(s.title)}</h2>${s.html}</section>`).join('')}</main>
</body></html>`;
}
