// What is rendered, and for whom
export type {
  DestinationNotification,
  DetectionNotification,
  InvestigationNotification,
  RenderContext,
} from './destination-notification';
export type { RenderedBody } from './rendered-body';
export { FIRST_NOTIFICATION_LINE, VIEW_LIMITS } from './notification-view';

// Destinations
export {
  DEFAULT_DESTINATION_KIND,
  DESTINATION_KINDS,
  destinationUrl,
  type DestinationConfig,
  type DestinationKind,
} from './destination-config';
export { renderDestination } from './render-destination';
export { bodyToSend, renderStoredBody } from './stored-body';

// One renderer per kind
export { renderWebhook } from './webhook/render-webhook';
export { renderSlack } from './slack/render-slack';
export { escapeSlackText } from './slack/escape-slack-text';
export { SLACK_LIMITS, SLACK_RENDER_LIMITS } from './slack/slack-limits';
export type { SlackMessage } from './slack/slack-message';
export { renderTeams } from './teams/render-teams';
export { escapeTeamsText } from './teams/escape-teams-text';
export { TEAMS_LIMITS, TEAMS_RENDER_LIMITS } from './teams/teams-limits';
export type { TeamsMessage } from './teams/teams-message';
export { renderPagerDuty, type PagerDutyOptions } from './pagerduty/render-pagerduty';
export { pagerDutyDedupKey } from './pagerduty/pagerduty-dedup-key';
export type { PagerDutyEvent } from './pagerduty/pagerduty-event';
export {
  DEFAULT_PAGERDUTY_SOURCE,
  PAGERDUTY_EVENTS_URLS,
  PAGERDUTY_LIMITS,
  PAGERDUTY_REGIONS,
  PAGERDUTY_RENDER_LIMITS,
  type PagerDutyRegion,
} from './pagerduty/pagerduty-limits';
export {
  DEFAULT_SEVERITY_MAPPING,
  PAGERDUTY_SEVERITIES,
  RISK_SCORE_MAX,
  RISK_SCORE_MIN,
  severityFor,
  type PagerDutySeverity,
  type SeverityBand,
  type SeverityMapping,
} from './pagerduty/severity-mapping';

// Validation of enrollment forms
export type {
  DestinationFieldError,
  DestinationValidation,
} from './validation/destination-validation';
export { validateDestinationConfig } from './validation/validate-destination-config';
export { validateProviderFilter } from './validation/validate-provider-filter';
export { validateSlackWebhookUrl } from './slack/validate-slack-webhook-url';
export { validateTeamsWebhookUrl } from './teams/validate-teams-webhook-url';
export { validatePagerDutyRoutingKey } from './pagerduty/validate-pagerduty-routing-key';
export { MAX_SEVERITY_BANDS, validateSeverityMapping } from './pagerduty/validate-severity-mapping';
export {
  MAX_SOURCE_FILTER_LENGTH,
  validateSourceFilter,
} from './validation/validate-source-filter';

// A delivery that died, told to its fallback destination
export type { DeliveryFailure } from './delivery-failure/delivery-failure';
export { FAILURE_VIEW_LIMITS, failureView } from './delivery-failure/failure-view';
export {
  DELIVERY_FAILED_EVENT_TYPE,
  renderDeliveryFailure,
} from './delivery-failure/render-delivery-failure';
export { renderFailureEmail } from './delivery-failure/render-failure-email';
