import { escapeHtml } from '@bo/sim-kit';

/** The provider's only question: who are you? No password; the e-mail typed is who signs in. */
export function signInPage(uid: string, clientId: string, error?: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in</title>
<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;display:grid;place-items:center;min-height:100vh;margin:0}
form{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:24px;display:grid;gap:12px;width:320px}
input{padding:8px;border:1px solid #cbd5e0;border-radius:4px}button{padding:8px;background:#3182ce;color:#fff;border:0;border-radius:4px}
.error{color:#c53030}small{color:#718096}</style></head><body>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<h1>Sign in</h1>
<small>Simulated identity provider for ${escapeHtml(clientId)}: no password is asked.</small>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<label>E-mail <input type="email" name="email" required autofocus></label>
<label>Name (optional) <input type="text" name="name"></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}
