import { Kafka, logLevel } from 'kafkajs';

export interface DeadLetterSeen {
  caseName: string;
  reason: string;
}

/**
 * Reads `<topic>.dlq` from the beginning and returns the dead letters carrying a `case` header,
 * once `done` says enough arrived or the deadline passes.
 */
export async function readDeadLetters(
  dlqTopic: string,
  done: (letters: readonly DeadLetterSeen[]) => boolean,
  timeoutMs = 60_000,
): Promise<DeadLetterSeen[]> {
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `dlq-reader-${Date.now()}-${Math.random()}` });
  const letters: DeadLetterSeen[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          const caseName = message.headers?.case?.toString();
          if (caseName === undefined) return;
          letters.push({ caseName, reason: message.headers?.['dlq.reason']?.toString() ?? '' });
          if (done(letters)) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return letters;
}
