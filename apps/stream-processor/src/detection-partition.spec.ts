import type { DetectionEventRecord } from '@vigil/contracts';
import type { DecodedRecord, OutputRecord } from '@vigil/kafka';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  applyEvents,
  type DetectionEvent,
  type DetectionState,
  type EffectiveSettings,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { commandsInRecord } from '../../../test/support/notification-commands';
import { DetectionPartition } from './detection-partition';
import type { SettingsLookup } from './settings-lookup';

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
const topics = { notificationCommands: 'commands', detectionState: 'state' };

function webhookSettings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    webhookEnabled: true,
    webhookProviderIds: ['provider-1'],
    frequency: 'immediate',
    ...overrides,
  };
}

/** Settings the test changes at will, as the cache would after a save. */
class FakeSettings implements SettingsLookup {
  current = webhookSettings();
  effective(): EffectiveSettings {
    return { settings: this.current, source: 'global' };
  }
}

let offset = 0;
function record(detectionId: string, id: string, overrides: Partial<DetectionEventRecord> = {}) {
  const value: DetectionEventRecord = {
    id,
    detection_id: detectionId,
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: 'ada@example.com',
    employee_name: 'Ada',
    asset_name: 'okta',
    happened: T0,
    risk_score: 5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: null,
    ...overrides,
  };
  offset += 1;
  const key = Buffer.from(detectionId);
  return {
    topic: 'events',
    partition: 2,
    offset: String(offset),
    key,
    raw: { key, value: Buffer.from('raw'), headers: {} },
    value,
  } as unknown as DecodedRecord;
}

const anEvent = (id: string): DetectionEvent => ({
  id,
  detectionId: 'det-a',
  detectionName: 'Impossible travel',
  personName: 'Ada',
  personEmail: 'ada@example.com',
  description: '',
  timestamp: T0,
  riskScore: 5,
  source: 'okta',
});

const commandsIn = (outputs: OutputRecord[]) =>
  outputs
    .filter((o) => o.topic === topics.notificationCommands)
    .flatMap((o) =>
      commandsInRecord(o.value).map((c) => c.decision as { kind: string; currentCount: number }),
    );
const statesIn = (outputs: OutputRecord[]) =>
  outputs
    .filter((o) => o.topic === topics.detectionState)
    .map((o) => ({
      partition: o.partition,
      state: JSON.parse(o.value!.toString()) as DetectionState,
    }));

describe('DetectionPartition', () => {
  it('makes one recalculation per detection of a batch and writes its state to the same partition', () => {
    const partition = new DetectionPartition(
      { topics, partition: 2, settings: new FakeSettings() },
      new Map(),
      T0,
    );
    const result = partition.process(
      [record('det-a', 'e1'), record('det-b', 'e2'), record('det-a', 'e3')],
      T0,
    );
    expect(commandsIn(result.outputs).map((c) => [c.kind, c.currentCount])).toEqual([
      ['webhook', 2],
      ['webhook', 1],
    ]);
    expect(
      statesIn(result.outputs).map((s) => [s.partition, s.state.detectionId, s.state.count]),
    ).toEqual([
      [2, 'det-a', 2],
      [2, 'det-b', 1],
    ]);
  });

  it('keeps its state unchanged until the transaction commits', () => {
    const partition = new DetectionPartition(
      { topics, partition: 2, settings: new FakeSettings() },
      new Map(),
      T0,
    );
    const batch = [record('det-a', 'e1')];
    partition.process(batch, T0);
    // Not committed: the retried batch decides the same thing again.
    const retried = partition.process(batch, T0);
    expect(commandsIn(retried.outputs)).toHaveLength(1);
    retried.commit!();
    expect(commandsIn(partition.process(batch, T0).outputs)).toEqual([]);
  });

  it('rejects invalid records and records keyed by something else than their detection', () => {
    const partition = new DetectionPartition(
      { topics, partition: 2, settings: new FakeSettings() },
      new Map(),
      T0,
    );
    const misKeyed = { ...record('det-a', 'e2'), key: Buffer.from('det-z') };
    const result = partition.process(
      [record('det-a', 'e1', { employee_email: 'nope' }), misKeyed, record('det-a', 'e3')],
      T0,
    );
    expect(result.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^invalid detection event: employee_email/),
      'record key is not the detection_id',
    ]);
    expect(commandsIn(result.outputs).map((c) => c.currentCount)).toEqual([1]);
  });

  it('dead-letters invalid records as validation failures', () => {
    const partition = new DetectionPartition(
      { topics, partition: 2, settings: new FakeSettings() },
      new Map(),
      T0,
    );
    const result = partition.process([record('det-a', 'e1', { employee_email: 'nope' })], T0);
    expect(result.rejected.map((r) => r.reasonClass)).toEqual(['validation']);
  });

  it('counts its decisions by mode and channel once the batch commits, not before', () => {
    const counted: string[] = [];
    const settings = new FakeSettings();
    settings.current = webhookSettings({ emailEnabled: true, recipients: ['soc@example.com'] });
    const partition = new DetectionPartition(
      {
        topics,
        partition: 2,
        settings,
        onDecisions: (mode, channel, count) => counted.push(`${mode} ${channel} ${count}`),
      },
      new Map(),
      T0,
    );
    const result = partition.process([record('det-a', 'e1'), record('det-b', 'e2')], T0);
    expect(counted).toEqual([]);
    result.commit!();
    expect(counted.sort()).toEqual(['immediate email 2', 'immediate webhook 2']);
  });

  it('restores detection states from the changelog and fires a snooze that ended meanwhile', () => {
    const settings = new FakeSettings();
    settings.current = webhookSettings({ silence: { kind: 'snoozed', until: T0 + 1_000 } });
    const first = new DetectionPartition({ topics, partition: 2, settings }, new Map(), T0);
    const batch = first.process([record('det-a', 'e1'), record('det-a', 'e2')], T0);
    expect(commandsIn(batch.outputs)).toEqual([]);

    const changelog = new Map<string, Buffer>(
      batch.outputs
        .filter((o) => o.topic === topics.detectionState)
        .map((o) => [o.key, o.value!] as [string, Buffer]),
    );
    changelog.set('investigation:inv-1', Buffer.from('{"schemaVersion":1}'));
    const restored = new DetectionPartition(
      { topics, partition: 2, settings },
      changelog,
      T0 + 500,
    );
    expect(restored.size).toBe(1);
    expect(restored.punctuate(T0 + 900)).toBeNull();
    const fired = restored.punctuate(T0 + 1_000)!;
    expect(commandsIn(fired.outputs).map((c) => [c.kind, c.currentCount])).toEqual([
      ['webhook', 2],
    ]);
    fired.commit!();
    expect(restored.punctuate(T0 + 2_000)).toBeNull();
  });

  it('keeps the de-duplication window across a restore, its sealed segments included', () => {
    const settings = new FakeSettings();
    const first = new DetectionPartition({ topics, partition: 2, settings }, new Map(), T0);
    const changelog = new Map<string, Buffer>();
    const ids = Array.from({ length: 2_300 }, (_, i) => `e${i}`);
    for (const chunk of [ids.slice(0, 1_200), ids.slice(1_200)]) {
      const batch = first.process(
        chunk.map((id) => record('det-a', id)),
        T0,
      );
      for (const o of batch.outputs.filter((o) => o.topic === topics.detectionState)) {
        expect(o.partition).toBe(2);
        changelog.set(o.key, o.value!);
      }
      batch.commit!();
    }
    // 23 sealed segments of 100 ids, and the state record with the last 0.
    expect(changelog.size).toBe(24);
    expect(changelog.has('dedup-window:100/22:det-a')).toBe(true);

    const restored = new DetectionPartition({ topics, partition: 2, settings }, changelog, T0);
    // A connector resending everything, plus one new event: only the new one counts.
    const resend = restored.process(
      [...ids, 'e-new'].map((id) => record('det-a', id)),
      T0 + 1_000,
    );
    expect(commandsIn(resend.outputs).map((c) => c.currentCount)).toEqual([2_301]);
  });

  it('dedups the same before and after a window is first sealed and hashed, and after a restore', () => {
    const settings = new FakeSettings();
    const partition = new DetectionPartition({ topics, partition: 2, settings }, new Map(), T0);
    const changelog = new Map<string, Buffer>();
    const ids = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `e${from + i}`);
    const counts: number[] = [];
    const send = (target: DetectionPartition, batch: string[], at: number) => {
      const result = target.process(
        batch.map((id) => record('det-a', id)),
        at,
      );
      counts.push(...commandsIn(result.outputs).map((c) => c.currentCount));
      for (const o of result.outputs.filter((o) => o.topic === topics.detectionState)) {
        changelog.set(o.key, o.value!);
      }
      result.commit!();
    };
    send(partition, ids(0, 99), T0);
    // Resends of all it knows with a few new: the batch that seals the first segment, then one
    // after it, then a partition restored from what was written.
    send(partition, ids(0, 103), T0 + 1_000);
    send(partition, ids(0, 104), T0 + 2_000);
    send(partition, ids(0, 104), T0 + 3_000);
    const restored = new DetectionPartition({ topics, partition: 2, settings }, changelog, T0);
    send(restored, ids(0, 105), T0 + 4_000);
    expect(counts).toEqual([99, 103, 104, 105]);
  });

  it('seals a window an older processor wrote whole at its next write, and keeps it after', () => {
    const settings = new FakeSettings();
    const ids = Array.from({ length: 250 }, (_, i) => `e${i}`);
    const old = applyEvents(
      undefined,
      ids.map((id, i) => ({ ...anEvent(id), timestamp: T0 + i })),
      T0,
    ).state;
    const changelog = new Map<string, Buffer>([['det-a', Buffer.from(JSON.stringify(old))]]);

    const restored = new DetectionPartition({ topics, partition: 2, settings }, changelog, T0);
    const next = restored.process(
      [...ids, 'e-new'].map((id) => record('det-a', id)),
      T0 + 1_000,
    );
    expect(commandsIn(next.outputs).map((c) => c.currentCount)).toEqual([251]);
    for (const o of next.outputs.filter((o) => o.topic === topics.detectionState)) {
      changelog.set(o.key, o.value!);
    }
    next.commit!();
    expect([...changelog.keys()].sort()).toEqual([
      'dedup-window:100/0:det-a',
      'dedup-window:100/1:det-a',
      'det-a',
    ]);
    expect(statesIn(next.outputs).at(-1)?.state.recentEventIds).toEqual([
      ...ids.slice(200),
      'e-new',
    ]);
    // The partition that wrote it and one restored from what it wrote know the same 251 ids.
    const again = new DetectionPartition({ topics, partition: 2, settings }, changelog, T0);
    for (const partition of [restored, again]) {
      const resend = partition.process(
        [...ids, 'e-new', 'e-newer'].map((id) => record('det-a', id)),
        T0 + 2_000,
      );
      expect(commandsIn(resend.outputs).map((c) => c.currentCount)).toEqual([252]);
    }
  });

  it('re-examines detections when their settings change, so lifting a disable reports at once', () => {
    const settings = new FakeSettings();
    settings.current = webhookSettings({ silence: { kind: 'disabled' } });
    const partition = new DetectionPartition({ topics, partition: 2, settings }, new Map(), T0);
    partition.process([record('det-a', 'e1')], T0).commit!();
    expect(partition.punctuate(T0 + 1_000)).toBeNull();

    settings.current = webhookSettings();
    partition.settingsChanged('det-a');
    const fired = partition.punctuate(T0 + 2_000)!;
    expect(commandsIn(fired.outputs).map((c) => [c.kind, c.currentCount])).toEqual([
      ['webhook', 1],
    ]);
  });
});
