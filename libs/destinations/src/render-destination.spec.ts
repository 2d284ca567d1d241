import fc from 'fast-check';
import { notifications } from '../../../test/support/destination-arbitraries';
import { destinationUrl, type DestinationConfig } from './destination-config';
import { renderPagerDuty } from './pagerduty/render-pagerduty';
import { DEFAULT_SEVERITY_MAPPING } from './pagerduty/severity-mapping';
import { renderDestination } from './render-destination';
import { renderSlack } from './slack/render-slack';
import { renderTeams } from './teams/render-teams';
import { aContext, aDetectionNotification, ROUTING_KEY } from './testing/notifications';
import { renderWebhook } from './webhook/render-webhook';

const configs: DestinationConfig[] = [
  { kind: 'webhook', url: 'https://tines.example/hook' },
  { kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/x' },
  {
    kind: 'teams',
    url: 'https://x.logic.azure.com/workflows/a/triggers/m/paths/invoke?sig=s',
  },
  {
    kind: 'pagerduty',
    routingKey: ROUTING_KEY,
    severityMapping: DEFAULT_SEVERITY_MAPPING,
    source: 'vigil',
    region: 'eu',
  },
];

describe('renderDestination', () => {
  it('renders with the renderer of the destination’s kind', () => {
    const notification = aDetectionNotification();
    const context = aContext();
    const [webhook, slack, teams, pagerduty] = configs;
    expect(renderDestination(notification, context, webhook)).toEqual(
      renderWebhook(notification, context),
    );
    expect(renderDestination(notification, context, slack)).toEqual(
      renderSlack(notification, context),
    );
    expect(renderDestination(notification, context, teams)).toEqual(
      renderTeams(notification, context),
    );
    expect(renderDestination(notification, context, pagerduty)).toEqual(
      renderPagerDuty(notification, context, {
        routingKey: ROUTING_KEY,
        severityMapping: DEFAULT_SEVERITY_MAPPING,
        source: 'vigil',
      }),
    );
  });

  it('renders the same bytes every time, so a stored body can be resent as it is', () => {
    fc.assert(
      fc.property(notifications(), fc.constantFrom(...configs.slice(1)), (notification, config) => {
        const first = renderDestination(notification, aContext(), config);
        expect(renderDestination(structuredClone(notification), aContext(), config)).toEqual(first);
        expect(() => JSON.parse(first.body) as unknown).not.toThrow();
      }),
      { numRuns: 50 },
    );
  });
});

describe('destinationUrl', () => {
  it('is the configured URL, or PagerDuty’s events endpoint for the account’s region', () => {
    expect(configs.map(destinationUrl)).toEqual([
      'https://tines.example/hook',
      'https://hooks.slack.com/services/T0/B0/x',
      'https://x.logic.azure.com/workflows/a/triggers/m/paths/invoke?sig=s',
      'https://events.eu.pagerduty.com/v2/enqueue',
    ]);
    expect(destinationUrl({ ...configs[3], region: 'us' } as DestinationConfig)).toBe(
      'https://events.pagerduty.com/v2/enqueue',
    );
  });
});
