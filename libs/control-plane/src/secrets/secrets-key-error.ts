/**
 * The secrets key is missing, unreadable or unfit, or does not open the stored secrets: start-up
 * refuses, and the message says why and how to fix it. It never contains a key.
 */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}
