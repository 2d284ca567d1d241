/** Injects the ContractRecordPublisher of the app's message log (Kafka or in-process). */
export const CONTRACT_PUBLISHER = Symbol('CONTRACT_PUBLISHER');
