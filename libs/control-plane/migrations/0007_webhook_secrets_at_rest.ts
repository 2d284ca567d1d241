import { type Migration } from './migration';

/**
 * Webhook signing secrets sealed at rest, and rotation with an overlap.
 *
 * - `secret` holds `v1:<key id>:…` (AES-256-GCM, see SecretBox). SQL has no key, so rows written
 *   before are sealed at start-up by the apps that hold the key (sealPlaintextSecrets); until
 *   then, and while a writer without the key remains, a `whsec_` plaintext is still accepted.
 * - `previous_secret` is the secret a rotation replaced, sealed the same way: it keeps signing
 *   beside the new one until `previous_secret_expires_at`.
 */
export const migration0007WebhookSecretsAtRest: Migration = {
  id: '0007_webhook_secrets_at_rest',
  sql: `
ALTER TABLE webhook_providers DROP CONSTRAINT webhook_providers_secret_check;
ALTER TABLE webhook_providers
  ADD CONSTRAINT webhook_providers_secret_format
    CHECK (secret LIKE 'v1:%' OR secret LIKE 'whsec\\_%'),
  ADD COLUMN previous_secret text
    CONSTRAINT webhook_providers_previous_secret_format
    CHECK (previous_secret LIKE 'v1:%' OR previous_secret LIKE 'whsec\\_%'),
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD CONSTRAINT webhook_providers_previous_secret_expiry
    CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL));
`,
};
