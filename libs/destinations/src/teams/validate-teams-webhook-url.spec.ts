import { validateTeamsWebhookUrl } from './validate-teams-webhook-url';

const POWER_PLATFORM =
  'https://default0123456789abcdef0123456789ab.cd.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC-dEf_123';
const LOGIC_APPS =
  'https://prod-23.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC-dEf_123';
const INCOMING_WEBHOOK =
  'https://contoso.webhook.office.com/webhookb2/0123-4567@89ab-cdef/IncomingWebhook/0123456789abcdef/89ab-cdef';

function errorOf(input: unknown): string {
  const result = validateTeamsWebhookUrl(input);
  if (result.ok) throw new Error(`accepted ${String(input)}`);
  expect(result.errors).toEqual([{ field: 'url', message: expect.any(String) }]);
  return result.errors[0].message;
}

describe('validateTeamsWebhookUrl', () => {
  it('accepts the URL of a workflow on Power Platform, dropping the default port', () => {
    const result = validateTeamsWebhookUrl(POWER_PLATFORM);
    expect(result).toEqual({ ok: true, value: POWER_PLATFORM.replace(':443', '') });
  });

  it('accepts the URL of a workflow on Logic Apps and of an incoming webhook', () => {
    expect(validateTeamsWebhookUrl(LOGIC_APPS).ok).toBe(true);
    expect(validateTeamsWebhookUrl(` ${INCOMING_WEBHOOK} `)).toEqual({
      ok: true,
      value: INCOMING_WEBHOOK,
    });
  });

  it('asks for the URL when there is none', () => {
    expect(errorOf('')).toMatch(/^Enter the URL of the Teams workflow/);
    expect(errorOf(undefined)).toMatch(/^Enter the URL of the Teams workflow/);
  });

  it('refuses http, credentials, ports and what is not a URL', () => {
    expect(errorOf(LOGIC_APPS.replace('https:', 'http:'))).toBe('must start with https://');
    expect(errorOf(LOGIC_APPS.replace('https://', 'https://a:b@'))).toMatch(/user name/);
    expect(errorOf(LOGIC_APPS.replace(':443', ':8443'))).toBe('must not name a port');
    expect(errorOf('not a url')).toBe('is not a URL');
  });

  it('refuses other hosts, look-alikes included', () => {
    for (const url of [
      LOGIC_APPS.replace('logic.azure.com', 'logic.azure.com.evil.example'),
      LOGIC_APPS.replace('prod-23.westeurope.logic.azure.com', 'logic.azure.com'),
      POWER_PLATFORM.replace('environment.api.powerplatform.com', 'evilpowerplatform.com'),
      INCOMING_WEBHOOK.replace('contoso.webhook.office.com', 'webhook.office.com.evil.example'),
      'https://outlook.office.com/webhook/abc/IncomingWebhook/def/ghi',
      'https://hooks.slack.com/services/T0/B0/x',
    ]) {
      expect(errorOf(url)).toMatch(/^must be a Teams workflow URL/);
    }
  });

  it('refuses a URL of the right host that does not invoke a trigger', () => {
    expect(errorOf(LOGIC_APPS.replace('/paths/invoke', '/run'))).toMatch(
      /^is not the URL of a workflow trigger/,
    );
    expect(errorOf('https://contoso.webhook.office.com/other/x')).toMatch(
      /^is not the URL of a workflow trigger/,
    );
  });

  it('explains that a workflow URL needs its sig parameter', () => {
    expect(errorOf(LOGIC_APPS.replace(/&sig=.*$/, ''))).toMatch(/lacks its sig parameter/);
    expect(errorOf(POWER_PLATFORM.replace(/&sig=.*$/, '&sig='))).toMatch(/lacks its sig parameter/);
  });
});
