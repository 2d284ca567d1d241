import { validateSlackWebhookUrl } from './validate-slack-webhook-url';

const URL_OK = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

function errorOf(input: unknown): string {
  const result = validateSlackWebhookUrl(input);
  if (result.ok) throw new Error(`accepted ${String(input)}`);
  expect(result.errors).toHaveLength(1);
  expect(result.errors[0].field).toBe('url');
  return result.errors[0].message;
}

describe('validateSlackWebhookUrl', () => {
  it('accepts an incoming-webhook URL, trimmed', () => {
    expect(validateSlackWebhookUrl(`  ${URL_OK}\n`)).toEqual({ ok: true, value: URL_OK });
    expect(
      validateSlackWebhookUrl('https://HOOKS.slack.com:443/services/T1ABC/B2DEF/abc123'),
    ).toEqual({ ok: true, value: 'https://hooks.slack.com/services/T1ABC/B2DEF/abc123' });
  });

  it('reports on the field it is given', () => {
    expect(validateSlackWebhookUrl('', 'slackUrl')).toMatchObject({
      ok: false,
      errors: [{ field: 'slackUrl' }],
    });
  });

  it('asks for the URL when there is none', () => {
    for (const input of [undefined, null, '', '   ', 42]) {
      expect(errorOf(input)).toMatch(/^Enter the incoming-webhook URL Slack gave you/);
    }
  });

  it('refuses what is not a URL, or a URL too long', () => {
    expect(errorOf('hooks.slack.com/services/T1/B1/x')).toBe('is not a URL');
    expect(errorOf(`${URL_OK}${'x'.repeat(2100)}`)).toMatch(/longer than 2048/);
  });

  it('refuses http, credentials and ports', () => {
    expect(errorOf(URL_OK.replace('https:', 'http:'))).toBe('must start with https://');
    expect(errorOf(URL_OK.replace('https://', 'https://u:p@'))).toMatch(/user name or password/);
    expect(errorOf(URL_OK.replace('.com/', '.com:8443/'))).toBe('must not name a port');
  });

  it('refuses other hosts, look-alikes included', () => {
    for (const url of [
      'https://hooks.slack.com.evil.example/services/T1/B1/x',
      'https://evil.example/services/T1/B1/x',
      'https://hooks.slack-gov.com/services/T1/B1/x',
      'https://slack.com/services/T1/B1/x',
    ]) {
      expect(errorOf(url)).toMatch(/^must be a Slack incoming-webhook URL on hooks.slack.com/);
    }
  });

  it('explains that a workflow webhook does not take messages', () => {
    expect(errorOf('https://hooks.slack.com/workflows/T1/A1/123/abc')).toMatch(
      /is a Slack workflow webhook/,
    );
    expect(errorOf('https://hooks.slack.com/triggers/T1/123/abc')).toMatch(
      /is a Slack workflow webhook/,
    );
  });

  it('refuses incomplete or altered incoming-webhook paths', () => {
    for (const url of [
      'https://hooks.slack.com/services/T00000000/B00000000',
      'https://hooks.slack.com/services/B00000000/T00000000/xyz',
      'https://hooks.slack.com/services/T0/B0/xyz/extra',
      'https://hooks.slack.com/services/t0/b0/xyz',
      'https://hooks.slack.com/api/chat.postMessage',
      `${URL_OK}?channel=general`,
      `${URL_OK}#x`,
    ]) {
      expect(errorOf(url)).toMatch(/^is not an incoming-webhook URL/);
    }
  });
});
