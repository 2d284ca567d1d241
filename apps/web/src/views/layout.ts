import { roleLabel, type ActiveSession } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { ASSETS } from '../assets/assets';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from './csrf-field';
import { disabledProvidersBanner } from './disabled-providers-banner';
import { icons } from './icons';
import { navigationFor, type TabItem } from './navigation';

export interface PageOptions {
  readonly title: string;
  /** The current path, to mark the navigation. */
  readonly path: string;
  /** Extra elements for <head>. */
  readonly head?: SafeHtml;
}

function document(title: string, bodyClass: string, body: SafeHtml, head?: SafeHtml): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · Vigil</title>
        <link rel="icon" href="${ASSETS.icon.path}" type="image/svg+xml" />
        <link rel="stylesheet" href="${ASSETS.styles.path}" />
        <script src="${ASSETS.script.path}" defer></script>
        ${head}
      </head>
      <body class="${bodyClass}">
        ${body}
      </body>
    </html>`;
}

function navigation(session: ActiveSession, path: string): SafeHtml {
  return html`<nav class="nav" aria-label="Main">
    ${navigationFor(session.user).map(
      (group) =>
        html`<div class="nav-group">
          <p class="nav-heading">${group.heading}</p>
          <ul>
            ${group.items.map((item) =>
              item.href === undefined
                ? html`<li>
                    <span class="nav-item is-disabled" aria-disabled="true"
                      >${item.label}<span class="soon">Soon</span></span
                    >
                  </li>`
                : html`<li>
                    <a
                      class="nav-item"
                      href="${item.href}"
                      ${path.startsWith(item.section) ? html` aria-current="page"` : ''}
                      >${item.label}</a
                    >
                  </li>`,
            )}
          </ul>
        </div>`,
    )}
  </nav>`;
}

/** A page of the signed-in application: sidebar navigation, account, and the content. */
export function appPage(viewer: Viewer, options: PageOptions, content: SafeHtml): SafeHtml {
  const { session } = viewer;
  const { user } = session;
  return document(
    options.title,
    'app',
    html`<a class="skip-link" href="#main">Skip to content</a>
      <div class="shell">
        <header class="sidebar">
          <a class="brand" href="/"
            >${icons.logo}<span>Vigil<small>Security</small></span></a
          >
          ${navigation(session, options.path)}
          <div class="account">
            <div>
              <div class="account-name">${user.name}</div>
              <div class="account-email">${user.email}</div>
              <span class="role-badge">${roleLabel(user.role)}</span>
            </div>
            <form method="post" action="/sign-out">
              ${csrfField(viewer.csrfToken)}
              <button class="signout" type="submit">Sign out</button>
            </form>
          </div>
        </header>
        <main id="main" class="content" tabindex="-1">
          <div class="page">
            ${disabledProvidersBanner(viewer.disabledProviders ?? [])}${content}
          </div>
        </main>
      </div>`,
    options.head,
  );
}

/** A page outside the application shell (sign-in). */
export function standalonePage(title: string, content: SafeHtml): SafeHtml {
  return document(title, 'auth-body', html`<main id="main">${content}</main>`);
}

export function pageHeader(options: {
  breadcrumb?: readonly { label: string; href?: string }[];
  title: string;
  description?: string;
  actions?: SafeHtml;
}): SafeHtml {
  return html`<div class="page-header">
    <div>
      ${
        options.breadcrumb &&
        html`<nav class="breadcrumb" aria-label="Breadcrumb">
          ${options.breadcrumb.map(
            (crumb, i) =>
              html`${i > 0 && ' / '}${crumb.href === undefined ? crumb.label : html`<a href="${crumb.href}">${crumb.label}</a>`}`,
          )}
        </nav>`
      }
      <h1>${options.title}</h1>
      ${options.description && html`<p>${options.description}</p>`}
    </div>
    ${options.actions && html`<div>${options.actions}</div>`}
  </div>`;
}

export function tabs(items: readonly TabItem[], current: string, label: string): SafeHtml {
  return html`<nav class="tabs" aria-label="${label}">
    ${items.map(
      (tab) =>
        html`<a href="${tab.href}" ${current.startsWith(tab.href) ? html` aria-current="page"` : ''}
          >${tab.label}</a
        >`,
    )}
  </nav>`;
}
