import {
  httpsProblem,
  invalid,
  parseUrlField,
  valid,
  type DestinationValidation,
} from '../validation/destination-validation';

const INCOMING_WEBHOOK_FORM = 'https://hooks.slack.com/services/T…/B…/…';
const INCOMING_WEBHOOK_PATH = /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+$/;

/**
 * A Slack incoming-webhook URL, the only kind that accepts Block Kit messages as Vigil sends
 * them: https://hooks.slack.com/services/<workspace id T…>/<webhook id B…>/<secret>. Workflow
 * Builder webhooks (hooks.slack.com/workflows/… or /triggers/…) take their own variables
 * instead, and are refused with a message that says so. The URL is a credential: store it as
 * a secret and never log it.
 */
export function validateSlackWebhookUrl(
  input: unknown,
  field = 'url',
): DestinationValidation<string> {
  const parsed = parseUrlField(
    input,
    field,
    `Enter the incoming-webhook URL Slack gave you (${INCOMING_WEBHOOK_FORM})`,
  );
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  const problem = httpsProblem(url);
  if (problem) return invalid(field, problem);
  if (url.hostname !== 'hooks.slack.com') {
    return invalid(
      field,
      `must be a Slack incoming-webhook URL on hooks.slack.com (${INCOMING_WEBHOOK_FORM})`,
    );
  }
  if (/^\/(workflows|triggers)\//.test(url.pathname)) {
    return invalid(
      field,
      `is a Slack workflow webhook, which does not accept messages; add an incoming webhook to the channel and use its URL (${INCOMING_WEBHOOK_FORM})`,
    );
  }
  if (!INCOMING_WEBHOOK_PATH.test(url.pathname) || url.search !== '' || url.hash !== '') {
    return invalid(
      field,
      `is not an incoming-webhook URL: expected ${INCOMING_WEBHOOK_FORM} (workspace id, webhook id, secret), copied whole`,
    );
  }
  return valid(url.href);
}
