import type { NotificationSettingsStore } from '@vigil/control-plane';
import { ApiError, resourceId } from '@vigil/http';
import { describeNotificationState } from '@vigil/notification-policy';
import { listAffectedUsers, queryEvents, type EventReadModel } from '@vigil/search';
import type { QueryRoute } from './query-route';

export interface QueryRoutesDependencies {
  readonly readModel: EventReadModel;
  readonly settingsStore: NotificationSettingsStore;
  readonly appUrl: string;
  readonly clock?: () => number;
}

/** The read-only endpoints of `/api-key/v1` (DESIGN.md §6), each a use case of the read model. */
export function queryRoutes(deps: QueryRoutesDependencies): QueryRoute[] {
  const { readModel, settingsStore, appUrl } = deps;
  const clock = deps.clock ?? Date.now;
  return [
    {
      method: 'POST',
      pattern: '/api-key/v1/events',
      status: 200,
      countsQueryErrors: true,
      handle: ({ body }) => queryEvents(readModel, body ?? {}),
    },
    {
      method: 'GET',
      pattern: '/api-key/v1/detections/:detectionId',
      status: 200,
      countsQueryErrors: false,
      handle: async ({ params }) => {
        const detectionId = params.detectionId;
        const summary = await readModel.getDetection(resourceId(detectionId, 'detection_id'));
        if (!summary) throw ApiError.notFound('Detection', detectionId);
        const [global, config] = await Promise.all([
          settingsStore.getGlobal(),
          settingsStore.getDetectionConfig(detectionId),
        ]);
        const state = describeNotificationState(global, config, clock());
        return {
          ...summary,
          notification: {
            configuration: state.configuration,
            state: state.state,
            snoozed_until:
              state.snoozedUntil === null ? null : new Date(state.snoozedUntil).toISOString(),
            frequency: state.frequency,
            email_enabled: state.emailEnabled,
            webhook_enabled: state.webhookEnabled,
          },
          action_url: `${appUrl}/u/detections/${encodeURIComponent(detectionId)}`,
        };
      },
    },
    {
      method: 'POST',
      pattern: '/api-key/v1/detections/:detectionId/events',
      status: 200,
      countsQueryErrors: true,
      handle: ({ params, body }) =>
        queryEvents(readModel, body ?? {}, resourceId(params.detectionId, 'detection_id')),
    },
    {
      method: 'GET',
      pattern: '/api-key/v1/detections/:detectionId/users',
      status: 200,
      countsQueryErrors: false,
      handle: ({ params, query }) =>
        listAffectedUsers(readModel, resourceId(params.detectionId, 'detection_id'), query),
    },
    {
      method: 'GET',
      pattern: '/api-key/v1/investigations/:investigationId',
      status: 200,
      countsQueryErrors: false,
      handle: async ({ params }) => {
        const investigationId = params.investigationId;
        const report = await readModel.getInvestigation(
          resourceId(investigationId, 'investigation_id'),
        );
        if (!report) throw ApiError.notFound('Investigation', investigationId);
        return {
          ...report,
          action_url: `${appUrl}/u/investigations/${encodeURIComponent(investigationId)}`,
        };
      },
    },
  ];
}
