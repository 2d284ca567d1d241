import { hash, verify } from '@node-rs/argon2';

/** How passwords are hashed and checked; the real one is argon2id. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

/**
 * argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane); the parameters are
 * stored in the PHC string, so raising them later still verifies older hashes.
 */
export class Argon2PasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      // A malformed stored hash never authenticates.
      return false;
    }
  }
}
