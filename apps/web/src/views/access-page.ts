import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { appPage, pageHeader, tabs } from './layout';
import { accessTabsFor } from './navigation';

/**
 * A page of Settings → Access: its header and tabs (API Keys for workspace admins, Your
 * account), then `content`. `path` marks the current tab.
 */
export function accessPage(
  viewer: Viewer,
  options: { readonly title: string; readonly path: string },
  content: SafeHtml,
): SafeHtml {
  return appPage(
    viewer,
    options,
    html`${pageHeader({
      breadcrumb: [{ label: 'Settings' }, { label: 'Access' }],
      title: 'Access',
      description: 'Who can use this workspace, and how scripts reach the query API.',
    })}
    ${tabs(accessTabsFor(viewer.session.user), options.path, 'Access')} ${content}`,
  );
}
