export { Topics, dlqTopicOf, valueSubjectOf, type TopicName } from './topics';
export {
  WINDOW_SEGMENT_PREFIX,
  investigationStateKey,
  isDetectionStateKey,
  isInvestigationStateKey,
  isWindowSegmentKey,
  parseWindowSegmentKey,
  windowSegmentKey,
} from './state-topic-keys';
export { detectionEventSchema, investigationSchema } from './avro-schemas';
export {
  parseDetectionEvent,
  describeEvent,
  detectionEventInput,
  type DetectionEventRecord,
  type DetectionEventInput,
} from './detection-event';
export {
  parseInvestigation,
  investigationInput,
  type InvestigationRecord,
  type InvestigationFinding,
} from './investigation';
export { parseDetectionEventFast } from './parse-detection-event-fast';
export { parseRecordBatch, type RawBatch } from './parse-record-batch';
export type {
  AffectedUser,
  AttachedEvents,
  DetectionUpdate,
  DigestEntryDecision,
  EmailDecision,
  EventSummary,
  NotificationChannel,
  NotificationDecision,
  WebhookDecision,
} from './notification-decision';
export type {
  InvestigationDecision,
  InvestigationEmailDecision,
  InvestigationUpdate,
  InvestigationWebhookDecision,
} from './investigation-decision';
export { encodeNotificationCommand, type NotificationCommand } from './notification-command';
export { encodeDetectionCommands } from './detection-commands-record';
export { decodeNotificationCommands } from './decode-notification-commands';
export {
  buildDetectionWebhookPayload,
  FIRST_NOTIFICATION_LINE,
  detectionBodyLines,
  detectionTitle,
  type DeliverySection,
  type DetectionNotice,
  type DetectionWebhookPayload,
  type NotificationSection,
  type PayloadDelivery,
} from './detection-webhook-payload';
export {
  buildInvestigationWebhookPayload,
  investigationBodyLines,
  investigationTitle,
  type InvestigationWebhookPayload,
} from './investigation-webhook-payload';
export { renderDetectionEmail } from './detection-email';
export { renderDigestEmail, type DigestContent, type DigestLine } from './digest-email';
export { renderInvestigationEmail } from './investigation-email';
export {
  SafeHtml,
  emailDocument,
  formatUtc,
  html,
  joinHtml,
  type RenderedEmail,
} from './rendered-email';
export {
  detectionUrl,
  formatElapsed,
  investigationUrl,
  outcomeLabel,
  quantity,
} from './notification-text';

// Valid records, for the tests of every tier
export { anEventRecord, anInvestigationRecord } from './testing/record-factories';
export { aWebhookDecision } from './testing/decision-factories';
