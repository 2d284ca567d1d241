/** Settings → Members, for workspace admins. */
export const MEMBERS_PATH = '/settings/members';

/** Where the page that showed a one-time link points its history entry once shown. */
export const MEMBER_LINK_SHOWN_PATH = `${MEMBERS_PATH}/link-shown`;

export const MEMBERS_BREADCRUMB = [{ label: 'Settings' }, { label: 'Members', href: MEMBERS_PATH }];

export function memberPath(user: { readonly id: string }): string {
  return `${MEMBERS_PATH}/${encodeURIComponent(user.id)}`;
}

/** The audit events about a member (the target of the change), in Settings → Audit log. */
export function memberAuditPath(user: { readonly id: string }): string {
  return `/settings/audit-log?${new URLSearchParams({ target_type: 'user', target_id: user.id }).toString()}`;
}

/** The audit events of what a member did (as the actor), in Settings → Audit log. */
export function memberActionsPath(user: { readonly email: string }): string {
  return `/settings/audit-log?${new URLSearchParams({ actor: user.email }).toString()}`;
}
