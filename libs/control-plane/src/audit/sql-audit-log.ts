import { isIP } from 'node:net';
import { type SqlExecutor } from '../sql/sql-client';
import {
  AUDIT_ACTOR_TYPES,
  type AuditActorType,
  type AuditEvent,
  type NewAuditEvent,
} from './audit-event';
import { AuditError } from './audit-error';
import {
  AUDIT_PAGE_DEFAULT,
  AUDIT_PAGE_MAX,
  type AuditFilter,
  type AuditLog,
  type AuditPage,
} from './audit-log';
import { redactAuditDetails } from './redact-audit-details';

interface AuditRow {
  id: string;
  occurred_at: Date;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  address: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

const COLUMNS =
  'id, occurred_at, actor_type, actor_id, actor_label, action, target_type, target_id, ' +
  'host(address) AS address, request_id, details';
const ACTION_FILTER = /^[a-z_]+(\.[a-z_]+)*\.?$/;
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\/(\d{1,19})$/;

function clip(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined || text === '') return null;
  return text.length > max ? text.slice(0, max) : text;
}

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: String(row.id),
    occurredAt: new Date(row.occurred_at),
    actor: {
      type: (AUDIT_ACTOR_TYPES as readonly string[]).includes(row.actor_type)
        ? (row.actor_type as AuditActorType)
        : 'system',
      id: row.actor_id,
      label: row.actor_label,
    },
    action: row.action,
    target: row.target_type === null ? null : { type: row.target_type, id: row.target_id ?? '' },
    address: row.address,
    requestId: row.request_id,
    details:
      typeof row.details === 'string'
        ? (JSON.parse(row.details) as Record<string, unknown>)
        : row.details,
  };
}

function encodeCursor(event: AuditEvent): string {
  return Buffer.from(`${event.occurredAt.toISOString()}/${event.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) {
    throw new AuditError('invalid_filter', 'The cursor is not one this list returned', 'cursor');
  }
  return { at: new Date(match[1]), id: match[2] };
}

/**
 * AuditLog over the `audit_events` table (migration 0009). It only ever INSERTs and SELECTs;
 * the purge goes through `purge_audit_events`, the one path the table's trigger lets a DELETE
 * through. Give it a transaction's executor to record an event together with the change it
 * describes.
 */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly sql: SqlExecutor) {}

  async append(event: NewAuditEvent): Promise<void> {
    const { actor } = event.context;
    const address = event.context.address?.trim() ?? '';
    await this.sql.query(
      `INSERT INTO audit_events (occurred_at, actor_type, actor_id, actor_label, action,
         target_type, target_id, address, request_id, details)
       VALUES (date_trunc('milliseconds', COALESCE($1::timestamptz, now())), $2, $3, $4, $5, $6, $7, $8::inet, $9, $10::jsonb)`,
      [
        event.occurredAt ?? null,
        actor.type,
        clip(actor.id, 200),
        clip(actor.label, 320) ?? actor.type,
        event.action,
        clip(event.target?.type, 100),
        clip(event.target?.id, 320),
        isIP(address) === 0 ? null : address,
        clip(event.context.requestId, 200),
        JSON.stringify(redactAuditDetails(event.details ?? {})),
      ],
    );
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    const limit = filter.limit ?? AUDIT_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) {
      throw new AuditError(
        'invalid_filter',
        `The limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`,
        'limit',
      );
    }
    const conditions: string[] = [];
    const params: unknown[] = [];
    const where = (condition: (placeholder: string) => string, value: unknown) => {
      params.push(value);
      conditions.push(condition(`$${params.length}`));
    };
    if (filter.since) where((p) => `occurred_at >= ${p}`, filter.since);
    if (filter.until) where((p) => `occurred_at < ${p}`, filter.until);
    if (filter.actor) where((p) => `(actor_label = ${p} OR actor_id = ${p})`, filter.actor.trim());
    if (filter.action) {
      const action = filter.action.trim();
      if (!ACTION_FILTER.test(action)) {
        throw new AuditError(
          'invalid_filter',
          'The action must be an action such as user.disabled, or a prefix such as user.',
          'action',
        );
      }
      // An action also matches the actions below it: user.sign_in finds .succeeded and .failed.
      const prefix = `${action.replace(/\.$/, '').replace(/_/g, '\\_')}.%`;
      if (action.endsWith('.')) where((p) => `action LIKE ${p}`, prefix);
      else {
        params.push(action, prefix);
        conditions.push(`(action = $${params.length - 1} OR action LIKE $${params.length})`);
      }
    }
    if (filter.targetType) where((p) => `target_type = ${p}`, filter.targetType);
    if (filter.targetId) where((p) => `target_id = ${p}`, filter.targetId);
    if (filter.cursor) {
      const { at, id } = decodeCursor(filter.cursor);
      params.push(at, id);
      conditions.push(`(occurred_at, id) < ($${params.length - 1}, $${params.length}::bigint)`);
    }
    params.push(limit + 1);
    const { rows } = await this.sql.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_events
       ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
       ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const events = rows.slice(0, limit).map(toEvent);
    return {
      events,
      nextCursor: rows.length > limit ? encodeCursor(events[events.length - 1]) : null,
    };
  }

  async purge(retentionDays: number): Promise<number> {
    if (!Number.isInteger(retentionDays) || retentionDays < 1) {
      throw new RangeError(`The audit retention is whole days, at least 1, not ${retentionDays}`);
    }
    const { rows } = await this.sql.query<{ removed: string }>(
      `SELECT purge_audit_events(make_interval(days => $1::int)) AS removed`,
      [retentionDays],
    );
    return Number(rows[0].removed);
  }
}
