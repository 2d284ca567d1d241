import { type Migration } from './migration';

/**
 * Webhook signing secrets in ciphertext only: the contract step of 0007, which still let a
 * `whsec_` plaintext in for rows written before encryption at rest and for writers without the
 * key.
 *
 * The narrowing cannot be a plain ALTER here. A migration runs before, or while, the previous
 * release's instances still serve (the `vigil-migrate` Job, the first new instance of a rolling
 * update): a web application of a release without the key writes plaintext secrets until it is
 * replaced, and a CHECK, even NOT VALID, applies to every row written after it, an UPDATE of an
 * old plaintext row included. So this migration only defines the step, and the apps that hold
 * the key take it at start-up, after sealing the plaintext they find
 * (`require_sealed_webhook_secrets`, called by requireSealedSecrets):
 *
 * - never while a plaintext row remains (in `secret` or `previous_secret`): the check and the
 *   change run under a lock that holds writers off, so none slips in between;
 * - never before `grace` has passed since this migration was applied: every instance of a
 *   release without the key is gone by then (a rolling update takes minutes; the apps pass 24 h);
 * - once: a later call finds the constraints in place and changes nothing.
 *
 * It returns what it did: `narrowed`, `already`, `too_soon` or `plaintext_remains`.
 */
export const migration0012SealedWebhookSecretsOnly: Migration = {
  id: '0012_sealed_webhook_secrets_only',
  sql: `
CREATE FUNCTION require_sealed_webhook_secrets(grace interval) RETURNS text
LANGUAGE plpgsql SET search_path = pg_catalog, public AS $$
DECLARE
  applied timestamptz;
BEGIN
  SELECT applied_at INTO applied FROM schema_migrations
   WHERE id = '0012_sealed_webhook_secrets_only';
  IF applied IS NOT NULL AND applied > now() - grace THEN
    RETURN 'too_soon';
  END IF;
  -- Self-conflicting and blocks writes, not reads: one caller at a time, and no plaintext
  -- can be written between the check below and the new constraints.
  LOCK TABLE webhook_providers IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM pg_constraint
              WHERE conrelid = 'webhook_providers'::regclass
                AND conname = 'webhook_providers_secret_sealed') THEN
    RETURN 'already';
  END IF;
  IF EXISTS (SELECT 1 FROM webhook_providers
              WHERE secret NOT LIKE 'v1:%' OR previous_secret NOT LIKE 'v1:%') THEN
    RETURN 'plaintext_remains';
  END IF;
  ALTER TABLE webhook_providers
    DROP CONSTRAINT webhook_providers_secret_format,
    DROP CONSTRAINT webhook_providers_previous_secret_format,
    ADD CONSTRAINT webhook_providers_secret_sealed CHECK (secret LIKE 'v1:%'),
    ADD CONSTRAINT webhook_providers_previous_secret_sealed CHECK (previous_secret LIKE 'v1:%');
  RETURN 'narrowed';
END
$$;
`,
};
