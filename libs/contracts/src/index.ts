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
export { parseRecordBatch, type RawBatch } from './parse-record-batch';
export {
  encodeNotificationCommand,
  decodeNotificationCommand,
  type NotificationCommand,
} from './notification-command';
