import { parseDetectionEvent, parseInvestigation } from '@vigil/contracts';
import { buildDemoScenario, stableId } from './sample-data';

const NOW = new Date('2026-03-02T10:00:00.000Z');

describe('buildDemoScenario', () => {
  it('builds the same scenario from the same seed and time', () => {
    expect(buildDemoScenario(42, NOW)).toEqual(buildDemoScenario(42, NOW));
  });

  it('keeps the detection and investigation ids from run to run, and makes new event ids', () => {
    const a = buildDemoScenario(1, NOW);
    const b = buildDemoScenario(2, new Date(NOW.getTime() + 60_000));
    expect(b.detections.map((d) => d.id)).toEqual(a.detections.map((d) => d.id));
    expect(b.investigations.map((i) => i.id)).toEqual(a.investigations.map((i) => i.id));
    const events = (s: typeof a) => s.waves.flat().map((e) => e.id);
    expect(events(a).filter((id) => events(b).includes(id))).toEqual([]);
  });

  it('investigates a person the detection’s events name, whatever the seed', () => {
    for (const seed of [1, 2, 3, 42, 20260302]) {
      const scenario = buildDemoScenario(seed, NOW);
      for (const report of scenario.investigations) {
        const people = scenario.waves
          .flat()
          .filter((e) => e.detection_id === report.detection.id)
          .map((e) => e.employee_email);
        expect(people).toContain(report.person.email);
        expect(report.headline).toContain(report.person.name);
      }
    }
  });

  it('covers every frequency mode twice and the five sources', () => {
    const { detections } = buildDemoScenario(7, NOW);
    const modes = detections.map((d) => d.frequency).sort();
    expect(modes).toEqual(['batch', 'batch', 'immediate', 'immediate', 'threshold', 'threshold']);
    expect(new Set(detections.map((d) => d.source))).toEqual(
      new Set(['okta', 'crowdstrike', 'google_workspace', 'github', 'aws']),
    );
  });

  it('has every record accepted by the ingest contracts, with unique event ids', () => {
    const scenario = buildDemoScenario(7, NOW);
    const events = scenario.waves.flat();
    for (const event of events) {
      expect(parseDetectionEvent(event, NOW.getTime())).toMatchObject({ ok: true });
    }
    for (const report of scenario.investigations) {
      expect(parseInvestigation(report)).toMatchObject({ ok: true });
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(scenario.investigations.map((i) => i.outcome).sort()).toEqual([
      'confirmed_risk',
      'no_risk',
    ]);
  });

  it('keeps Threshold detections at or under their threshold in the first wave and over it after the last', () => {
    const scenario = buildDemoScenario(7, NOW);
    for (const detection of scenario.detections.filter((d) => d.frequency === 'threshold')) {
      const countAfter = (waves: number) =>
        scenario.waves
          .slice(0, waves)
          .flat()
          .filter((e) => e.detection_id === detection.id).length;
      expect(countAfter(1)).toBeLessThanOrEqual(detection.threshold!);
      expect(countAfter(scenario.waves.length)).toBeGreaterThan(detection.threshold!);
    }
  });

  it('dates events within the hour before now', () => {
    for (const event of buildDemoScenario(9, NOW).waves.flat()) {
      const age = NOW.getTime() - Date.parse(event.happened);
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThanOrEqual(60 * 60_000);
    }
  });
});

describe('stableId', () => {
  it('is UUID-shaped and depends on the seed and the label', () => {
    expect(stableId(1, 'a')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(stableId(1, 'a')).toBe(stableId(1, 'a'));
    expect(stableId(1, 'a')).not.toBe(stableId(2, 'a'));
    expect(stableId(1, 'a')).not.toBe(stableId(1, 'b'));
  });
});
