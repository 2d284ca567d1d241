/** The topics the processor writes: commands for the notifier, and its state changelog. */
export interface ProcessorTopics {
  notificationCommands: string;
  detectionState: string;
}
