import {
  type DeliveryAttempt,
  type DeliveryView,
  type NotificationSettingsStore,
  type WebhookProviderView,
} from '@vigil/control-plane';
import {
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { QueryError, parseQuery } from '@vigil/query-language';
import {
  decodeCursor,
  decodeUserCursor,
  encodeCursor,
  encodeUserCursor,
  type AffectedUser,
  type DetectionSummary,
  type EventPage,
  type EventReadModel,
  type EventView,
} from '@vigil/search';
import { type DeliveryLog } from '../ports/delivery-log';
import { type WebhookProviders } from '../ports/webhook-providers';
import { WorkspaceError } from '../workspace-error';

export const EVENTS_PER_PAGE = 25;
export const USERS_PER_PAGE = 10;
/** How many recent deliveries a detection's page shows. */
export const DETECTION_DELIVERIES_SHOWN = 20;
/** The query API's limit on a filter (DESIGN.md §6); a longer one is cut, not refused. */
const QUERY_MAX_LENGTH = 8 * 1024;

/** One delivery about the detection, with who it went to and how its last attempt went. */
export interface DetectionDeliveryRow {
  readonly delivery: DeliveryView;
  /** The provider's name (webhook) or the recipient address (email); null for a deleted provider. */
  readonly targetName: string | null;
  readonly lastAttempt: DeliveryAttempt | null;
}

export interface DetectionOverview {
  readonly detection: DetectionSummary;
  readonly events: {
    readonly items: readonly EventView[];
    readonly nextCursor: string | null;
    /** The filter as typed (cut to the query limit). */
    readonly query: string;
    /** Where the page starts; absent on the first page. */
    readonly cursor?: string;
    /** Why the filter was refused, with its position. */
    readonly error?: string;
  };
  readonly users: {
    readonly items: readonly AffectedUser[];
    readonly nextCursor: string | null;
    readonly cursor?: string;
  };
  readonly config: DetectionNotificationConfig;
  readonly global: NotificationSettings;
  readonly providers: readonly WebhookProviderView[];
  /** Newest first. */
  readonly deliveries: readonly DetectionDeliveryRow[];
}

export interface ShowDetectionQuery {
  readonly detectionId: string;
  /** A filter in the query language of the API; empty or absent matches every event. */
  readonly query?: string;
  readonly eventsCursor?: string;
  readonly usersCursor?: string;
}

/**
 * A detection's page (the `action_url` of detection webhooks): its figures, a page of its
 * events (filtered), a page of its affected users, its notification settings with the global
 * ones and the providers, and its recent deliveries with their last attempts.
 */
export class ShowDetection {
  constructor(
    private readonly readModel: EventReadModel,
    private readonly settings: NotificationSettingsStore,
    private readonly providers: WebhookProviders,
    private readonly deliveries: DeliveryLog,
  ) {}

  async execute(request: ShowDetectionQuery): Promise<DetectionOverview> {
    const { detectionId: id, eventsCursor, usersCursor } = request;
    const detection = await this.readModel.getDetection(id);
    if (detection === null) throw new WorkspaceError('not_found', 'No such detection');
    const query = (request.query ?? '').slice(0, QUERY_MAX_LENGTH);
    const eventsAfter = eventsCursor === undefined ? undefined : decodeCursor(eventsCursor);
    const usersAfter = usersCursor === undefined ? undefined : decodeUserCursor(usersCursor);
    if (eventsAfter === null || usersAfter === null) {
      throw new WorkspaceError('invalid_cursor', 'The page cursor is not one this page issued');
    }
    let events: EventPage = { items: [], next: null };
    let error: string | undefined;
    try {
      events = await this.readModel.searchEvents({
        query: parseQuery(query),
        detectionId: id,
        limit: EVENTS_PER_PAGE,
        after: eventsAfter,
      });
    } catch (refused) {
      if (!(refused instanceof QueryError)) throw refused;
      error = refused.message;
    }
    const [users, config, global, providers, deliveries] = await Promise.all([
      this.readModel.listAffectedUsers({
        detectionId: id,
        limit: USERS_PER_PAGE,
        after: usersAfter,
      }),
      this.settings.getDetectionConfig(id),
      this.settings.getGlobal(),
      this.providers.list(),
      this.deliveries.listWithLastAttempt({ subjectId: id, limit: DETECTION_DELIVERIES_SHOWN }),
    ]);
    const names = new Map(providers.map((p) => [p.id, p.name]));
    return {
      detection,
      events: {
        items: events.items,
        nextCursor: events.next === null ? null : encodeCursor(events.next),
        query,
        cursor: eventsCursor,
        error,
      },
      users: {
        items: users.items,
        nextCursor: users.next === null ? null : encodeUserCursor(users.next),
        cursor: usersCursor,
      },
      config,
      global,
      providers,
      deliveries: deliveries.map(({ delivery, lastAttempt }) => ({
        delivery,
        lastAttempt,
        targetName:
          delivery.channel === 'email' ? delivery.target : (names.get(delivery.target) ?? null),
      })),
    };
  }
}
