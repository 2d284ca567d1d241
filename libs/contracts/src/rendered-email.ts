import escapeHtml from 'escape-html';

/** An email as rendered once at delivery creation; the sender only adds From and To. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** `2024-05-01 10:00:05 UTC`: readable in any mail client, unambiguous across time zones. */
export function formatUtc(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Every interpolated value goes through here; the templates never concatenate raw data. */
export function html(strings: TemplateStringsArray, ...values: (string | number | SafeHtml)[]) {
  let out = strings[0];
  values.forEach((value, i) => {
    out += (value instanceof SafeHtml ? value.value : escapeHtml(String(value))) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** Markup built by `html`, so it is not escaped twice when nested. */
export class SafeHtml {
  constructor(readonly value: string) {}
}

export function joinHtml(parts: SafeHtml[]): SafeHtml {
  return new SafeHtml(parts.map((part) => part.value).join(''));
}

/** A plain, inline-styled document: mail clients drop <style> blocks and external CSS. */
export function emailDocument(title: string, content: SafeHtml): string {
  return html`<!doctype html>
    <html>
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
      </head>
      <body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5">
        ${content}
        <p style="color:#7b8794;font-size:12px">
          Sent by Vigil. Notification settings are in the Settings area of the web application.
        </p>
      </body>
    </html>`.value;
}
