import {
  type AffectedUserPage,
  type AffectedUserSearch,
  type DetectionListPage,
  type DetectionListSearch,
  type DetectionSummary,
  type EventPage,
  type EventReadModel,
  type EventSearch,
  type EventView,
  type InvestigationReport,
  type RecordedDetectionState,
} from '@vigil/search';

/**
 * The read models of the specs: detections, their events (newest first, paged by position; the
 * query is not evaluated) and investigations.
 */
export class InMemoryReadModel implements EventReadModel {
  readonly detections = new Map<string, DetectionSummary>();
  readonly events: EventView[] = [];
  readonly investigations = new Map<string, InvestigationReport>();
  /** Detection states as the processor recorded them, by detection id. */
  readonly states = new Map<string, RecordedDetectionState>();
  /** What the last event search asked for. */
  lastSearch: EventSearch | undefined;

  addDetection(id: string, events = 1): DetectionSummary {
    const detection: DetectionSummary = {
      id,
      name: `Detection ${id}`,
      event_count: events,
      user_count: events,
      first_seen: '2026-01-01T00:00:00.000Z',
      last_seen: '2026-01-02T00:00:00.000Z',
      max_risk_score: 5,
    };
    this.detections.set(id, detection);
    for (let i = 0; i < events; i++) {
      this.events.unshift({
        id: `${id}-evt-${i}`,
        issue_type: 'impossible_travel',
        employee_email: `person${i}@example.com`,
        employee_name: `Person ${i}`,
        asset_name: 'laptop',
        happened: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        risk_score: 5,
        source: 'okta',
        high_prevalence: false,
        allowlisted: false,
        detection_id: id,
        detection_name: detection.name,
        description: `event ${i}`,
      });
    }
    return detection;
  }

  async searchEvents(search: EventSearch): Promise<EventPage> {
    this.lastSearch = search;
    const mine = this.events.filter((e) => e.detection_id === search.detectionId);
    const start =
      search.after === undefined ? 0 : mine.findIndex((e) => e.id === search.after![1]) + 1;
    const items = mine.slice(start, start + search.limit);
    const last = items.at(-1);
    const more = start + search.limit < mine.length && last !== undefined;
    return { items, next: more ? [Date.parse(last.happened), last.id] : null };
  }

  async getDetection(detectionId: string): Promise<DetectionSummary | null> {
    return this.detections.get(detectionId) ?? null;
  }

  async listSources(): Promise<string[]> {
    return [...new Set(this.events.map((e) => e.source))].sort();
  }

  async detectionExists(detectionId: string): Promise<boolean> {
    return this.detections.has(detectionId);
  }

  async listDetections(search: DetectionListSearch): Promise<DetectionListPage> {
    const items = [...this.detections.values()].slice(0, search.limit);
    return { items, nextCursor: null };
  }

  async listAffectedUsers(search: AffectedUserSearch): Promise<AffectedUserPage> {
    const emails = [
      ...new Set(
        this.events
          .filter((e) => e.detection_id === search.detectionId)
          .map((e) => e.employee_email),
      ),
    ].sort();
    const start = search.after === undefined ? 0 : emails.indexOf(search.after) + 1;
    const page = emails.slice(start, start + search.limit);
    return {
      items: page.map((email) => ({
        employee_email: email,
        employee_name: email,
        event_count: 1,
        max_risk_score: 5,
        last_seen: '2026-01-02T00:00:00.000Z',
      })),
      next: start + search.limit < emails.length ? (page.at(-1) ?? null) : null,
    };
  }

  async getInvestigation(investigationId: string): Promise<InvestigationReport | null> {
    return this.investigations.get(investigationId) ?? null;
  }

  async getDetectionState(detectionId: string): Promise<RecordedDetectionState | null> {
    return this.states.get(detectionId) ?? null;
  }
}
