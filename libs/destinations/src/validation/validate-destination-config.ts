import {
  DEFAULT_DESTINATION_KIND,
  DESTINATION_KINDS,
  type DestinationConfig,
  type DestinationKind,
} from '../destination-config';
import {
  DEFAULT_PAGERDUTY_SOURCE,
  PAGERDUTY_REGIONS,
  PAGERDUTY_RENDER_LIMITS,
  type PagerDutyRegion,
} from '../pagerduty/pagerduty-limits';
import { DEFAULT_SEVERITY_MAPPING } from '../pagerduty/severity-mapping';
import { validatePagerDutyRoutingKey } from '../pagerduty/validate-pagerduty-routing-key';
import { validateSeverityMapping } from '../pagerduty/validate-severity-mapping';
import { validateSlackWebhookUrl } from '../slack/validate-slack-webhook-url';
import { validateTeamsWebhookUrl } from '../teams/validate-teams-webhook-url';
import { sanitizeText } from '../text/sanitize-text';
import {
  invalid,
  parseUrlField,
  valid,
  type DestinationFieldError,
  type DestinationValidation,
} from './destination-validation';

/**
 * A destination from an enrollment form, checked field by field for its kind (`webhook` when
 * none is given). Every problem is reported on the field it is about. Whether a webhook URL
 * points at a private address is the control plane's check, not this one.
 */
export function validateDestinationConfig(
  input: unknown,
): DestinationValidation<DestinationConfig> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return invalid('', 'must be an object');
  }
  const raw = input as Record<string, unknown>;
  const kind = raw.kind ?? DEFAULT_DESTINATION_KIND;
  if (!(DESTINATION_KINDS as readonly unknown[]).includes(kind)) {
    return invalid('kind', `must be one of ${DESTINATION_KINDS.join(', ')}`);
  }
  const errors: DestinationFieldError[] = [];
  const take = <T>(result: DestinationValidation<T>): T | undefined => {
    if (result.ok) return result.value;
    errors.push(...result.errors);
    return undefined;
  };
  const config = configOf(kind as DestinationKind, raw, take);
  return errors.length === 0 && config ? valid(config) : { ok: false, errors };
}

function configOf(
  kind: DestinationKind,
  raw: Record<string, unknown>,
  take: <T>(result: DestinationValidation<T>) => T | undefined,
): DestinationConfig | undefined {
  switch (kind) {
    case 'webhook': {
      const url = take(validateWebhookUrl(raw.url));
      return url === undefined ? undefined : { kind, url };
    }
    case 'slack': {
      const url = take(validateSlackWebhookUrl(raw.url));
      return url === undefined ? undefined : { kind, url };
    }
    case 'teams': {
      const url = take(validateTeamsWebhookUrl(raw.url));
      return url === undefined ? undefined : { kind, url };
    }
    case 'pagerduty': {
      const routingKey = take(validatePagerDutyRoutingKey(raw.routingKey));
      const severityMapping =
        raw.severityMapping === undefined
          ? DEFAULT_SEVERITY_MAPPING
          : take(validateSeverityMapping(raw.severityMapping));
      const source = take(validatePagerDutySource(raw.source));
      const region = take(validatePagerDutyRegion(raw.region));
      if (!routingKey || !severityMapping || !source || !region) return undefined;
      return { kind, routingKey, severityMapping, source, region };
    }
  }
}

/** Any http(s) URL: the SPEC payload goes wherever the provider receives webhooks. */
function validateWebhookUrl(input: unknown, field = 'url'): DestinationValidation<string> {
  const parsed = parseUrlField(input, field, 'Enter the URL that receives the webhooks');
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return invalid(field, 'must start with https:// or http://');
  }
  if (url.username !== '' || url.password !== '') {
    return invalid(field, 'must not contain a user name or password');
  }
  return valid(url.href);
}

/** `payload.source`: one line naming the system, "vigil" when left empty. */
function validatePagerDutySource(input: unknown, field = 'source'): DestinationValidation<string> {
  if (input === undefined || input === null) return valid(DEFAULT_PAGERDUTY_SOURCE);
  if (typeof input !== 'string') return invalid(field, 'must be text');
  const source = input.trim();
  if (source === '') return valid(DEFAULT_PAGERDUTY_SOURCE);
  if (source.length > PAGERDUTY_RENDER_LIMITS.label) {
    return invalid(field, `must be at most ${PAGERDUTY_RENDER_LIMITS.label} characters long`);
  }
  if (sanitizeText(source) !== source) {
    return invalid(field, 'must be one line of text, without control characters');
  }
  return valid(source);
}

function validatePagerDutyRegion(
  input: unknown,
  field = 'region',
): DestinationValidation<PagerDutyRegion> {
  if (input === undefined || input === null) return valid('us');
  return (PAGERDUTY_REGIONS as readonly unknown[]).includes(input)
    ? valid(input as PagerDutyRegion)
    : invalid(
        field,
        `must be one of ${PAGERDUTY_REGIONS.join(', ')} (the region of the PagerDuty account)`,
      );
}
