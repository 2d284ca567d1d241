import type { TokenRateLimiter } from '@vigil/auth';
import type { Logger } from '@vigil/config';
import type { AppOps } from '@vigil/ops';
import type { ApiTokenService, NotificationSettingsStore } from '@vigil/control-plane';
import type { EventReadModel } from '@vigil/search';

/** What the API application is built around; tests pass their own. */
export interface ApiDependencies {
  readModel: EventReadModel;
  tokenService: ApiTokenService;
  settingsStore: NotificationSettingsStore;
  appUrl: string;
  rateLimiter: TokenRateLimiter;
  maxBodyBytes: number;
  logger: Logger;
  /** Request logs and metrics. */
  ops: AppOps;
}
