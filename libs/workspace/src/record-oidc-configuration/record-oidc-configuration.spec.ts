import { InMemoryAuditLog } from '../testing/in-memory-audit-log';
import {
  RecordOidcConfiguration,
  type OidcConfigurationSummary,
} from './record-oidc-configuration';

const CONFIGURED: OidcConfigurationSummary = {
  enabled: true,
  issuer: 'https://id.example.com',
  clientId: 'vigil',
  redirectUrl: 'https://vigil.example.com/sign-in/oidc/callback',
  displayName: 'Example ID',
  jitRole: 'none',
  allowedDomains: [],
  passwordSignIn: 'on',
};

describe('RecordOidcConfiguration', () => {
  it('records nothing while single sign-on was never set up', async () => {
    const audit = new InMemoryAuditLog();
    expect(
      await new RecordOidcConfiguration(audit).execute({ enabled: false, passwordSignIn: 'on' }),
    ).toBe(false);
    expect(audit.events).toEqual([]);
  });

  it('records a set-up once, and again only when it changes, as the service', async () => {
    const audit = new InMemoryAuditLog();
    const record = new RecordOidcConfiguration(audit);
    expect(await record.execute(CONFIGURED)).toBe(true);
    expect(await record.execute({ ...CONFIGURED })).toBe(false);
    expect(await record.execute({ ...CONFIGURED, passwordSignIn: 'off' })).toBe(true);
    expect(await record.execute({ enabled: false, passwordSignIn: 'on' })).toBe(true);
    expect(
      audit.events.map((e) => [e.actor.type, e.details.passwordSignIn, e.details.enabled]),
    ).toEqual([
      ['system', 'on', false],
      ['system', 'off', true],
      ['system', 'on', true],
    ]);
  });
});
