/** Topic names of DESIGN.md §3, before the deployment's prefix is applied. */
export const Topics = {
  detectionEvents: 'detections.events.v1',
  investigations: 'investigations.v1',
  notificationCommands: 'notifications.commands.v1',
  detectionState: 'processor.detection-state.v1',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

export function dlqTopicOf(topic: string): string {
  return `${topic}.dlq`;
}

/** Subject of a topic's value schema under the registry's TopicNameStrategy. */
export function valueSubjectOf(topic: string): string {
  return `${topic}-value`;
}
