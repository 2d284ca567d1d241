import { migration0001ApiTokens } from './0001_api_tokens';
import { type Migration } from './migration';

export type { Migration } from './migration';

/**
 * Every migration, in the order they apply. Later parts of the control plane (users, sessions,
 * notification settings, webhook providers, deliveries) append theirs here.
 */
export const controlPlaneMigrations: readonly Migration[] = [migration0001ApiTokens];
