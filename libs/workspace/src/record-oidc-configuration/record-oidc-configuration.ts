import { SYSTEM_ACTOR } from '@vigil/control-plane';
import { type AuditTrail } from '../ports/audit-trail';

/** The single sign-on set-up as the audit log shows it: no client secret, ever. */
export interface OidcConfigurationSummary {
  readonly enabled: boolean;
  readonly issuer?: string;
  readonly clientId?: string;
  readonly redirectUrl?: string;
  readonly displayName?: string;
  readonly jitRole?: string;
  readonly allowedDomains?: readonly string[];
  readonly passwordSignIn: 'on' | 'off';
}

function canonical(summary: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(
    Object.keys(summary)
      .sort()
      .map((key) => [key, summary[key]]),
  );
}

/**
 * Records the single sign-on set-up in the audit log (`oidc.configured`) when it differs from
 * the last one recorded, so each change of the environment that configures it is visible once,
 * whichever instance starts first. Returns whether an event was written.
 */
export class RecordOidcConfiguration {
  constructor(
    private readonly audit: AuditTrail,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(summary: OidcConfigurationSummary): Promise<boolean> {
    const { events } = await this.audit.list({ action: 'oidc.configured', limit: 1 });
    const last = events[0]?.details;
    if (last === undefined ? !summary.enabled : canonical(last) === canonical({ ...summary })) {
      return false;
    }
    await this.audit.append({
      action: 'oidc.configured',
      context: { actor: SYSTEM_ACTOR },
      details: { ...summary },
      occurredAt: this.clock(),
    });
    return true;
  }
}
