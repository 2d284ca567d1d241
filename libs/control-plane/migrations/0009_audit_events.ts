import { type Migration } from './migration';

/**
 * The audit log: security-relevant actions, who did them, when, from where and on what.
 *
 * Append-only, enforced by the database rather than by convention: a trigger refuses every
 * UPDATE and TRUNCATE, and every DELETE except the retention purge. The purge is the function
 * `purge_audit_events(retention)`, which alone sets the transaction-local setting
 * `vigil.audit_retention` that the trigger lets deletes through under; no code of the
 * application issues UPDATE or DELETE on the table. Deployments that separate roles can go
 * further (REVOKE UPDATE, DELETE, TRUNCATE from the application's role; the function is
 * SECURITY DEFINER, so it keeps working when owned by another role).
 * `details` holds before/after values of changed settings, never a secret.
 */
export const migration0009AuditEvents: Migration = {
  id: '0009_audit_events',
  sql: `
CREATE TABLE audit_events (
  id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at  timestamptz NOT NULL DEFAULT now(),
  actor_type   text        NOT NULL CHECK (actor_type IN ('user', 'operator', 'system', 'token')),
  actor_id     text        CHECK (char_length(actor_id) <= 200),
  actor_label  text        NOT NULL CHECK (char_length(actor_label) BETWEEN 1 AND 320),
  action       text        NOT NULL CHECK (action ~ '^[a-z_]+(\\.[a-z_]+)+$' AND char_length(action) <= 100),
  target_type  text        CHECK (char_length(target_type) <= 100),
  target_id    text        CHECK (char_length(target_id) <= 320),
  address      inet,
  request_id   text        CHECK (char_length(request_id) <= 200),
  details      jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object')
);

CREATE INDEX audit_events_recent_idx ON audit_events (occurred_at DESC, id DESC);
CREATE INDEX audit_events_action_idx ON audit_events (action text_pattern_ops, occurred_at DESC);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_label, occurred_at DESC);
CREATE INDEX audit_events_target_idx ON audit_events (target_type, target_id, occurred_at DESC);

CREATE FUNCTION audit_events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('vigil.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Old events are removed by purge_audit_events(retention) only.';
END
$$;

CREATE TRIGGER audit_events_append_only
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_truncate
  BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();

CREATE FUNCTION purge_audit_events(retention interval) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  removed bigint;
BEGIN
  IF retention < interval '1 day' THEN
    RAISE EXCEPTION 'audit retention must be at least one day, not %', retention;
  END IF;
  PERFORM set_config('vigil.audit_retention', 'on', true);
  DELETE FROM audit_events WHERE occurred_at < now() - retention;
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('vigil.audit_retention', 'off', true);
  RETURN removed;
END
$$;
`,
};
