import { DEFAULT_SEVERITY_MAPPING } from '../pagerduty/severity-mapping';
import { ROUTING_KEY } from '../testing/notifications';
import { validateDestinationConfig } from './validate-destination-config';

const SLACK_URL = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
const TEAMS_URL =
  'https://prod-23.westeurope.logic.azure.com/workflows/abc123/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s1g';

describe('validateDestinationConfig', () => {
  it('takes a destination without a kind as a webhook with the SPEC payload', () => {
    expect(validateDestinationConfig({ url: 'https://tines.example/hook' })).toEqual({
      ok: true,
      value: { kind: 'webhook', url: 'https://tines.example/hook' },
    });
  });

  it('accepts each kind with its own fields', () => {
    expect(validateDestinationConfig({ kind: 'slack', url: SLACK_URL })).toEqual({
      ok: true,
      value: { kind: 'slack', url: SLACK_URL },
    });
    expect(validateDestinationConfig({ kind: 'teams', url: TEAMS_URL })).toEqual({
      ok: true,
      value: { kind: 'teams', url: TEAMS_URL },
    });
    expect(validateDestinationConfig({ kind: 'pagerduty', routingKey: ROUTING_KEY })).toEqual({
      ok: true,
      value: {
        kind: 'pagerduty',
        routingKey: ROUTING_KEY,
        severityMapping: DEFAULT_SEVERITY_MAPPING,
        source: 'vigil',
        region: 'us',
      },
    });
  });

  it('refuses an unknown kind', () => {
    expect(validateDestinationConfig({ kind: 'email' })).toEqual({
      ok: false,
      errors: [{ field: 'kind', message: 'must be one of webhook, slack, teams, pagerduty' }],
    });
  });

  it('refuses what is not an object', () => {
    expect(validateDestinationConfig('slack')).toEqual({
      ok: false,
      errors: [{ field: '', message: 'must be an object' }],
    });
  });

  it('checks a Slack URL as an incoming webhook, and a Teams URL as a workflow', () => {
    const slack = validateDestinationConfig({ kind: 'slack', url: 'https://tines.example/x' });
    expect(slack).toMatchObject({ ok: false, errors: [{ field: 'url' }] });
    const teams = validateDestinationConfig({ kind: 'teams', url: SLACK_URL });
    expect(teams).toMatchObject({ ok: false, errors: [{ field: 'url' }] });
  });

  it('refuses a webhook URL that is not http(s) or carries credentials', () => {
    expect(validateDestinationConfig({ url: 'ftp://x.example/' })).toEqual({
      ok: false,
      errors: [{ field: 'url', message: 'must start with https:// or http://' }],
    });
    expect(validateDestinationConfig({ url: 'https://u:p@x.example/' })).toEqual({
      ok: false,
      errors: [{ field: 'url', message: 'must not contain a user name or password' }],
    });
    expect(validateDestinationConfig({})).toEqual({
      ok: false,
      errors: [{ field: 'url', message: 'Enter the URL that receives the webhooks' }],
    });
  });

  it('reports every problem of a PagerDuty destination, each on its field', () => {
    const result = validateDestinationConfig({
      kind: 'pagerduty',
      routingKey: 'short',
      severityMapping: { bands: [{ from: 0, to: 5, severity: 'info' }], unscored: 'info' },
      source: 'two\nlines',
      region: 'apac',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.field)).toEqual([
      'routingKey',
      'severityMapping.bands[0].to',
      'source',
      'region',
    ]);
    expect(result.errors[2].message).toBe('must be one line of text, without control characters');
    expect(result.errors[3].message).toBe(
      'must be one of us, eu (the region of the PagerDuty account)',
    );
  });

  it('takes a blank PagerDuty source as vigil and refuses one too long', () => {
    const blank = validateDestinationConfig({
      kind: 'pagerduty',
      routingKey: ROUTING_KEY,
      source: '  ',
      region: 'eu',
    });
    expect(blank).toMatchObject({ ok: true, value: { source: 'vigil', region: 'eu' } });
    const long = validateDestinationConfig({
      kind: 'pagerduty',
      routingKey: ROUTING_KEY,
      source: 's'.repeat(256),
    });
    expect(long).toEqual({
      ok: false,
      errors: [{ field: 'source', message: 'must be at most 255 characters long' }],
    });
  });
});
