import type { RetryOptions } from 'kafkajs';

/**
 * A consumer's retry options that let kafkajs restart a crashed consumer only while its owner
 * still runs it. kafkajs arms the restart timer after its own crash handling, which can end
 * after the owner's disconnect: without this, a consumer stopped during a crash (typically
 * while its broker is gone) starts again and keeps reconnecting for the life of the process.
 */
export function restartUnless(stopped: () => boolean): RetryOptions {
  return {
    // kafkajs' default for consumers, which a `retry` option replaces.
    retries: 5,
    restartOnFailure: async () => !stopped(),
  };
}
