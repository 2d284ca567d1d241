import { SafeHtml, html } from '@vigil/http';
import type { CaughtEmail } from './mail-catcher';
import type { ReceivedWebhook, SignatureCheck } from './webhook-inbox';

/** Styles only (no script runs on these pages); served inline under a strict CSP. */
const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","DejaVu Sans",sans-serif;color:#1c2430;background:#f4f6f9}
header{background:#1c2430;color:#fff;padding:12px 24px;display:flex;gap:24px;align-items:baseline;flex-wrap:wrap}
header strong{font-size:17px}
header a{color:#cfe0ff;text-decoration:none}
header a[aria-current=page]{color:#fff;text-decoration:underline}
main{max-width:1100px;margin:0 auto;padding:20px 24px}
h1{font-size:22px;margin:0 0 4px}
p.lead{margin:0 0 16px;color:#4a5565}
.card{background:#fff;border:1px solid #dde3ea;border-radius:8px;margin:0 0 16px;padding:14px 16px;overflow:hidden}
.row{display:flex;gap:12px;flex-wrap:wrap;align-items:baseline}
.title{font-weight:600;overflow-wrap:anywhere}
.muted{color:#5f6b7a;font-size:13px}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid}
.valid{color:#0b6b2e;border-color:#0b6b2e;background:#e8f6ec}
.invalid{color:#a1161b;border-color:#a1161b;background:#fdeaea}
.unchecked{color:#5f6b7a;border-color:#aab4c0;background:#f4f6f9}
.kind{color:#1d4f91;border-color:#1d4f91;background:#eaf1fb}
pre{background:#0f1720;color:#e6edf3;padding:12px;border-radius:6px;overflow:auto;max-height:480px;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;margin:8px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
details{margin-top:8px}
summary{cursor:pointer;color:#1d4f91}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #dde3ea;border-radius:8px}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid #e7ebf0;vertical-align:top;overflow-wrap:anywhere}
th{font-size:13px;color:#4a5565;background:#f8fafc}
td a{color:#1d4f91}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dt{color:#5f6b7a}
dd{margin:0;overflow-wrap:anywhere}
iframe{width:100%;height:560px;border:1px solid #dde3ea;border-radius:6px;background:#fff}
.empty{padding:32px;text-align:center;color:#5f6b7a;background:#fff;border:1px dashed #c8d0da;border-radius:8px}
@media (max-width:600px){main{padding:12px}header{padding:10px 12px}}
`;

// A constant of this file, so trusted; escaping it would turn its quotes into entities.
const TRUSTED_STYLES = new SafeHtml(STYLES);

/** The page's Content-Security-Policy: no script anywhere; an email's HTML shows in a sandbox. */
export const INBOX_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

type Section = 'webhooks' | 'mail' | 'home';

/** List pages refresh themselves, so new arrivals show without a script. */
function layout(section: Section, title: string, body: SafeHtml, refresh = false): string {
  const link = (target: Section, href: string, label: string) =>
    html`<a href="${href}" ${target === section ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${refresh ? html`<meta http-equiv="refresh" content="5" />` : ''}
        <title>${title} · Vigil local inbox</title>
        <style>
          ${TRUSTED_STYLES}
        </style>
      </head>
      <body>
        <header>
          <strong>Vigil local inbox</strong
          >${link('webhooks', '/webhooks', 'Webhooks')}${link('mail', '/mail', 'Mail')}
        </header>
        <main>${body}</main>
      </body>
    </html>`.value;
}

function time(date: Date): string {
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

const SIGNATURE_LABELS: Record<SignatureCheck, string> = {
  valid: 'signature valid',
  invalid: 'signature INVALID',
  unchecked: 'signature not checked (secret unknown)',
};

/** The JSON body indented, or the raw text when it is not JSON. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

interface WebhookSummary {
  kind: 'detection' | 'investigation' | 'other';
  title: string | undefined;
}

/** Routes as SPEC.md §6.4 says a receiver should: on which metadata object is present. */
export function summarizeWebhook(body: string): WebhookSummary {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const notification = parsed.notification as Record<string, unknown> | undefined;
    const title = typeof notification?.title === 'string' ? notification.title : undefined;
    if (parsed.investigation_metadata !== undefined) return { kind: 'investigation', title };
    if (parsed.metadata !== undefined) return { kind: 'detection', title };
    return { kind: 'other', title };
  } catch {
    return { kind: 'other', title: undefined };
  }
}

/** The newest payload is shown open; older ones fold away so the list stays scannable. */
function webhookCard(item: ReceivedWebhook, index: number): SafeHtml {
  const summary = summarizeWebhook(item.body);
  const headerRows = Object.entries(item.headers).map(
    ([name, value]) =>
      html`<tr>
        <th scope="row">${name}</th>
        <td>${value}</td>
      </tr>`,
  );
  return html`<article class="card" data-webhook="${item.seq}">
    <div class="row">
      <span class="title">${summary.title ?? '(no notification title)'}</span>
      <span class="badge kind">${summary.kind}</span>
      <span class="badge ${item.signature}" title="${item.signatureError ?? ''}"
        >${SIGNATURE_LABELS[item.signature]}</span
      >
    </div>
    <div class="muted">
      #${item.seq} · ${time(item.receivedAt)} · POST /webhooks/${item.channel} · webhook-id
      ${item.headers['webhook-id'] ?? '(none)'}
    </div>
    <details ${index === 0 ? html`open` : ''}>
      <summary>Payload</summary>
      <pre>${prettyBody(item.body)}</pre>
    </details>
    <details>
      <summary>Headers (${headerRows.length})</summary>
      <table>
        ${headerRows}
      </table>
    </details>
  </article>`;
}

export function webhooksPage(items: readonly ReceivedWebhook[], receiveUrl: string): string {
  const body = html`<h1>Webhooks</h1>
    <p class="lead">
      POST JSON to <code>${receiveUrl}</code> (any channel name after <code>/webhooks/</code>).
      Newest first; the page refreshes every 5 seconds.
    </p>
    ${items.length === 0 ? html`<div class="empty">No webhook received yet.</div>` : items.map(webhookCard)}`;
  return layout('webhooks', 'Webhooks', body, true);
}

export function mailListPage(items: readonly CaughtEmail[], smtpAddress: string): string {
  const rows = items.map(
    (m) =>
      html`<tr>
        <td class="muted">${time(m.receivedAt)}</td>
        <td>${m.envelopeTo.join(', ')}</td>
        <td><a href="/mail/${m.id}">${m.subject}</a></td>
      </tr>`,
  );
  const body = html`<h1>Mail</h1>
    <p class="lead">
      Every message sent to SMTP <code>${smtpAddress}</code>, newest first; the page refreshes every
      5 seconds.
    </p>
    ${
      items.length === 0
        ? html`<div class="empty">No email received yet.</div>`
        : html`<table>
            <thead>
              <tr>
                <th>Received</th>
                <th>To</th>
                <th>Subject</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }`;
  return layout('mail', 'Mail', body, true);
}

export function mailMessagePage(email: CaughtEmail): string {
  const body = html`<p><a href="/mail">← All mail</a></p>
    <h1>${email.subject}</h1>
    <div class="card">
      <dl>
        <dt>From</dt>
        <dd>${email.from ?? email.envelopeFrom ?? ''}</dd>
        <dt>To</dt>
        <dd>${email.envelopeTo.join(', ')}</dd>
        <dt>Received</dt>
        <dd>${time(email.receivedAt)}</dd>
      </dl>
    </div>
    ${
      email.html === undefined
        ? ''
        : html`<h2>HTML part</h2>
            <iframe
              title="HTML part of the email"
              sandbox=""
              referrerpolicy="no-referrer"
              srcdoc="${email.html}"
            ></iframe>`
    }
    <h2>Text part</h2>
    <pre>${email.text ?? '(no text part)'}</pre>`;
  return layout('mail', email.subject, body);
}

export function inboxHomePage(receiveUrl: string, smtpAddress: string): string {
  const body = html`<h1>Vigil local inbox</h1>
    <p class="lead">A webhook receiver and a mail catcher for trying Vigil on one machine.</p>
    <div class="card">
      <dl>
        <dt><a href="/webhooks">Webhooks</a></dt>
        <dd>receives at <code>${receiveUrl}</code></dd>
        <dt><a href="/mail">Mail</a></dt>
        <dd>SMTP at <code>${smtpAddress}</code></dd>
      </dl>
    </div>`;
  return layout('home', 'Home', body);
}

export function notFoundPage(): string {
  return layout('home', 'Not found', html`<h1>Not found</h1>`);
}
