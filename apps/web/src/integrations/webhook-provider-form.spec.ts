import { WebhookProviderError } from '@vigil/control-plane';
import { checkProviderForm, parseSeverityBands, providerErrorOf } from './webhook-provider-form';

/** The filter of a form whose filter fields were left as they are: every notification. */
const EVERYTHING = { subjects: 'all', minRiskScore: '', sources: [] };

describe('the webhook provider form', () => {
  it('turns a complete form into an enrollment, trimmed', () => {
    expect(
      checkProviderForm({
        name: ' SOAR ',
        kind: 'automation',
        url: ' https://hooks.example.com/x ',
      }),
    ).toEqual({
      ok: true,
      command: {
        name: 'SOAR',
        kind: 'automation',
        url: 'https://hooks.example.com/x',
        filter: EVERYTHING,
      },
    });
  });

  it('reports every field problem at once', () => {
    expect(checkProviderForm({ name: ' ', kind: 'email', url: 'hooks.example.com' })).toEqual({
      ok: false,
      errors: {
        name: 'Enter a name.',
        kind: 'Choose Automation platform or Custom webhook.',
        url: 'Enter a full URL starting with https:// (or http://).',
      },
    });
  });

  it('explains a refused target next to the URL', () => {
    const refused = new WebhookProviderError(
      'target_refused',
      '127.0.0.1 resolves to 127.0.0.1, a loopback address; webhook targets must be public',
      'url',
    );
    expect(providerErrorOf(refused).url).toBe(
      'Vigil will not send to this URL: 127.0.0.1 resolves to 127.0.0.1, a loopback address; webhook targets must be public.',
    );
  });

  it('says in words that a host name could not be found, next to the URL', () => {
    const unresolved = new WebhookProviderError(
      'target_refused',
      'The host name example.invalid could not be found (DNS). Check the URL.',
      'url',
    );
    expect(providerErrorOf(unresolved).url).toBe(
      'The host name example.invalid could not be found (DNS). Check the URL.',
    );
  });

  it('turns a Slack or PagerDuty form into an enrollment with its destination', () => {
    expect(
      checkProviderForm({
        name: 'SOC',
        kind: 'custom',
        url: ' https://hooks.slack.com/services/T/B/x ',
        destination: 'slack',
      }),
    ).toEqual({
      ok: true,
      command: {
        name: 'SOC',
        kind: 'custom',
        url: 'https://hooks.slack.com/services/T/B/x',
        destination: { kind: 'slack' },
        filter: EVERYTHING,
      },
    });
    expect(
      checkProviderForm({
        name: 'On-call',
        kind: 'custom',
        url: 'ignored for PagerDuty',
        destination: 'pagerduty',
        routingKey: ' KEY ',
        region: 'eu',
        source: '',
        severityBands: '0-5 warning\n\n5–10 Critical',
        severityUnscored: 'error',
      }),
    ).toEqual({
      ok: true,
      command: {
        name: 'On-call',
        kind: 'custom',
        url: '',
        destination: {
          kind: 'pagerduty',
          routingKey: 'KEY',
          region: 'eu',
          source: '',
          severityMapping: {
            bands: [
              { from: 0, to: 5, severity: 'warning' },
              { from: 5, to: 10, severity: 'critical' },
            ],
            unscored: 'error',
          },
        },
        filter: EVERYTHING,
      },
    });
  });

  it('says which line of the severity bands it cannot read, and asks for a missing key', () => {
    expect(parseSeverityBands('0-4 info\nfour to ten: critical')).toEqual({
      ok: false,
      error: 'Line 2: write one band per line as FROM-TO SEVERITY, for example “4-7 warning”.',
    });
    expect(
      checkProviderForm({
        name: 'x',
        kind: 'custom',
        url: '',
        destination: 'pagerduty',
        routingKey: '',
        severityBands: ' ',
      }),
    ).toEqual({
      ok: false,
      errors: {
        routingKey: 'Enter the integration key of the PagerDuty service (Events API v2).',
        severityBands: 'Enter at least one band, for example “0-10 warning”.',
      },
    });
    expect(
      checkProviderForm({
        name: 'x',
        kind: 'custom',
        url: 'https://a.example',
        destination: 'fax',
      }),
    ).toEqual({
      ok: false,
      errors: { destination: 'Choose Webhook, Slack, Microsoft Teams or PagerDuty.' },
    });
  });

  it('puts each refused destination field’s message on its own field, as a sentence', () => {
    const refused = new WebhookProviderError('invalid_request', 'x', 'routingKey', [
      { field: 'routingKey', message: 'must be 32 characters long, not 9' },
      { field: 'severityMapping.bands[1].from', message: 'must be 4' },
      { field: 'severityMapping.bands[2].to', message: 'must be 10' },
      { field: 'severityMapping.unscored', message: 'must be one of info, warning' },
      { field: 'kind', message: 'must be one of webhook, slack' },
    ]);
    expect(providerErrorOf(refused)).toEqual({
      routingKey: 'The integration key must be 32 characters long, not 9.',
      severityBands: 'Line 2: the “from” score must be 4. Line 3: the “to” score must be 10.',
      severityUnscored: 'The severity of unscored notifications must be one of info, warning.',
      destination: 'The destination must be one of webhook, slack.',
    });
  });

  it('turns the filter fields into the filter the provider rules check, sources split at commas', () => {
    const checked = checkProviderForm({
      name: 'SOC',
      kind: 'custom',
      url: 'https://soar.example.com/hook',
      filterSubjects: 'detections',
      filterMinRiskScore: ' 7.5 ',
      filterSources: 'okta, GitHub ,\n aws,',
    });
    expect(checked).toMatchObject({
      ok: true,
      command: {
        filter: {
          subjects: 'detections',
          minRiskScore: ' 7.5 ',
          sources: ['okta', 'GitHub', 'aws'],
        },
      },
    });
  });

  it('puts refused filter fields on their own fields', () => {
    const refused = new WebhookProviderError('invalid_request', 'x', 'filter.minRiskScore', [
      {
        field: 'filter.minRiskScore',
        message: 'must be a number of at least 0, or empty for every score',
      },
      { field: 'filter.sources[0]', message: '"splunk" is not a known source (known: okta)' },
      { field: 'filter.sources[2]', message: '"aws" is not a known source (known: okta)' },
    ]);
    expect(providerErrorOf(refused)).toEqual({
      filterMinRiskScore: 'The minimum must be a number of at least 0, or empty for every score.',
      filterSources:
        '"splunk" is not a known source (known: okta). "aws" is not a known source (known: okta).',
    });
  });
});
