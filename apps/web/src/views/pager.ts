import { html, type SafeHtml } from '@vigil/http';

export interface PagerLink {
  readonly label: string;
  readonly href: string;
  /** The link to the following page. */
  readonly next?: boolean;
}

/** The links to other pages of a list, at the foot of its card; nothing when there are none. */
export function pager(label: string, links: readonly (PagerLink | false)[]): SafeHtml {
  const shown = links.filter((link): link is PagerLink => link !== false);
  if (shown.length === 0) return html``;
  return html`<nav class="card-footer pager" aria-label="${label}">
    ${shown.map(
      (link) =>
        html`<a class="button button-small" ${link.next && html` rel="next"`} href="${link.href}"
          >${link.label}</a
        >`,
    )}
  </nav>`;
}
