/** Injects the EventReadModel the query endpoints read. */
export const EVENT_READ_MODEL = Symbol('EVENT_READ_MODEL');
