import {
  httpsProblem,
  invalid,
  parseUrlField,
  valid,
  type DestinationValidation,
} from '../validation/destination-validation';

/**
 * The forms of URL that take a Teams message: the trigger of a workflow ("When a Teams webhook
 * request is received", Power Automate) on the Power Platform host, or on the Logic Apps host
 * that older workflows still use; and an incoming webhook on webhook.office.com.
 */
const FORMS: readonly { host: RegExp; path: RegExp; signed: boolean }[] = [
  {
    host: /^[a-z0-9-]+(\.[a-z0-9-]+)*\.environment\.api\.powerplatform\.com$/,
    path: /^\/powerautomate\/automations\/direct\/workflows\/[A-Za-z0-9]+\/triggers\/[A-Za-z0-9_-]+\/paths\/invoke\/?$/,
    signed: true,
  },
  {
    host: /^[a-z0-9-]+(\.[a-z0-9-]+)*\.logic\.azure\.com$/,
    path: /^\/workflows\/[A-Za-z0-9]+\/triggers\/[A-Za-z0-9_-]+\/paths\/invoke\/?$/,
    signed: true,
  },
  {
    host: /^[a-z0-9-]+\.webhook\.office\.com$/,
    path: /^\/webhookb2\/[^/]+(\/[^/]+)+$/,
    signed: false,
  },
];

const EXPECTED =
  'a Teams workflow URL (https://….environment.api.powerplatform.com/powerautomate/automations/direct/workflows/…, or https://….logic.azure.com/workflows/…) or an incoming webhook (https://….webhook.office.com/webhookb2/…)';

/**
 * A URL that posts to Teams: a workflow trigger or an incoming webhook, https only. A workflow
 * URL must keep its `sig` parameter: without it the request is refused. The URL is a
 * credential: store it as a secret and never log it.
 */
export function validateTeamsWebhookUrl(
  input: unknown,
  field = 'url',
): DestinationValidation<string> {
  const parsed = parseUrlField(input, field, `Enter the URL of the Teams workflow: ${EXPECTED}`);
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  const problem = httpsProblem(url);
  if (problem) return invalid(field, problem);
  const form = FORMS.find((f) => f.host.test(url.hostname));
  if (!form) return invalid(field, `must be ${EXPECTED}`);
  if (!form.path.test(url.pathname)) {
    return invalid(field, `is not the URL of a workflow trigger or webhook: expected ${EXPECTED}`);
  }
  if (form.signed && !url.searchParams.get('sig')) {
    return invalid(
      field,
      'lacks its sig parameter: copy the whole URL from the workflow trigger, query included',
    );
  }
  return valid(url.href);
}
