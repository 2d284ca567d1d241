/** Injection token of the `EventReadModel` the Detections and Investigations pages read. */
export const EVENT_READ_MODEL = Symbol('EVENT_READ_MODEL');
