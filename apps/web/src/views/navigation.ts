import { type UserRecord } from '@vigil/control-plane';

export interface NavItem {
  readonly label: string;
  /** Where it leads; absent while the page is not available yet (shown as "Soon"). */
  readonly href?: string;
  /** The item is current when the path starts with this. */
  readonly section: string;
}

export interface NavGroup {
  readonly heading: string;
  readonly items: readonly NavItem[];
}

/**
 * The main navigation. A page that ships gives its item an href. Members and Audit log are for
 * workspace admins only (their routes refuse anyone else).
 */
export function navigationFor(user: UserRecord): readonly NavGroup[] {
  const admin = user.role === 'admin';
  return [
    {
      heading: 'Monitor',
      items: [{ label: 'Detections', href: '/u/detections', section: '/u/detections' }],
    },
    {
      heading: 'Settings',
      items: [
        { label: 'Access', href: '/settings/access', section: '/settings/access' },
        ...(admin
          ? [{ label: 'Members', href: '/settings/members', section: '/settings/members' }]
          : []),
        {
          label: 'Notifications',
          href: '/settings/notifications',
          section: '/settings/notifications',
        },
        {
          label: 'Integrations',
          href: '/settings/integrations',
          section: '/settings/integrations',
        },
        ...(admin
          ? [{ label: 'Audit log', href: '/settings/audit-log', section: '/settings/audit-log' }]
          : []),
      ],
    },
  ];
}

export interface TabItem {
  readonly label: string;
  readonly href: string;
}

/** Tabs of Settings → Access. API Keys only for workspace admins (SPEC.md §1). */
export function accessTabsFor(user: UserRecord): readonly TabItem[] {
  return [
    ...(user.role === 'admin' ? [{ label: 'API Keys', href: '/settings/access/api-keys' }] : []),
    { label: 'Your account', href: '/settings/access/account' },
  ];
}
