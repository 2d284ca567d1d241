export { Topics, dlqTopicOf, valueSubjectOf, type TopicName } from './topics';
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
export {
  encodeNotificationCommand,
  encodeDetectionCommands,
  decodeNotificationCommands,
  type NotificationCommand,
} from './notification-command';
export {
  buildDetectionWebhookPayload,
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
export { formatUtc, type RenderedEmail } from './rendered-email';
export { detectionUrl, formatElapsed, investigationUrl, outcomeLabel } from './notification-text';
