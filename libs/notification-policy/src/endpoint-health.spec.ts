import fc from 'fast-check';
import {
  HEALTHY,
  applyHealthChange,
  describeHealthVerdict,
  healthChangeOf,
  healthVerdict,
  type EndpointHealth,
  type HealthOutcome,
} from './endpoint-health';

const HOUR = 60 * 60 * 1000;
const rules = { failingForMs: 72 * HOUR, deadInARow: 5 };
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('healthVerdict', () => {
  it('keeps a healthy provider', () => {
    expect(healthVerdict(HEALTHY, at(0), rules)).toEqual({ disable: false });
  });

  it('disables a provider that failed every attempt for the whole period, not a moment before', () => {
    const health = { failingSince: at(0), deadInARow: 1 };
    expect(healthVerdict(health, at(72 * HOUR - 1), rules)).toEqual({ disable: false });
    expect(healthVerdict(health, at(72 * HOUR), rules)).toEqual({
      disable: true,
      rule: 'failing_for',
      failingSince: at(0),
    });
  });

  it('disables after N dead deliveries in a row', () => {
    const failing = { failingSince: at(0), deadInARow: 4 };
    expect(healthVerdict(failing, at(HOUR), rules)).toEqual({ disable: false });
    expect(healthVerdict({ ...failing, deadInARow: 5 }, at(HOUR), rules)).toEqual({
      disable: true,
      rule: 'dead_in_a_row',
      deadInARow: 5,
    });
  });

  it('turns a rule off with 0', () => {
    const health = { failingSince: at(0), deadInARow: 1000 };
    expect(healthVerdict(health, at(1000 * HOUR), { failingForMs: 0, deadInARow: 0 })).toEqual({
      disable: false,
    });
  });

  it('says why in one sentence', () => {
    expect(describeHealthVerdict({ disable: true, rule: 'failing_for', failingSince: at(0) })).toBe(
      'Every attempt has failed since 2026-01-01T00:00:00.000Z.',
    );
    expect(describeHealthVerdict({ disable: true, rule: 'dead_in_a_row', deadInARow: 5 })).toBe(
      '5 deliveries in a row died after their last retry.',
    );
  });
});

describe('healthChangeOf', () => {
  it('counts failures after the last success only', () => {
    const change = healthChangeOf([
      { at: at(3), result: 'dead' },
      { at: at(1), result: 'retry' },
      { at: at(2), result: 'delivered' },
      { at: at(4), result: 'retry' },
    ]);
    expect(change).toEqual({ reset: true, failingSince: at(3), dead: 1 });
  });

  it('adds to the stored counters when nothing succeeded', () => {
    const change = healthChangeOf([
      { at: at(5), result: 'dead' },
      { at: at(4), result: 'retry' },
    ]);
    expect(change).toEqual({ reset: false, failingSince: at(4), dead: 1 });
    expect(applyHealthChange({ failingSince: at(1), deadInARow: 2 }, change)).toEqual({
      failingSince: at(1),
      deadInARow: 3,
    });
  });

  it('ends with healthy counters when the last attempt succeeded', () => {
    const change = healthChangeOf([
      { at: at(1), result: 'dead' },
      { at: at(2), result: 'delivered' },
    ]);
    expect(applyHealthChange({ failingSince: at(0), deadInARow: 9 }, change)).toEqual(HEALTHY);
  });
});

const outcomeArb: fc.Arbitrary<HealthOutcome> = fc.record({
  at: fc.integer({ min: 0, max: 1_000_000 }).map(at),
  result: fc.constantFrom('delivered' as const, 'retry' as const, 'dead' as const),
});

/** The counters by definition: replay every attempt in time order from a healthy provider. */
function replay(outcomes: readonly HealthOutcome[]): EndpointHealth {
  let health: EndpointHealth = HEALTHY;
  for (const o of [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    if (o.result === 'delivered') health = HEALTHY;
    else {
      health = {
        failingSince: health.failingSince ?? o.at,
        deadInARow: health.deadInARow + (o.result === 'dead' ? 1 : 0),
      };
    }
  }
  return health;
}

describe('health counters (properties)', () => {
  it('applying batches in time order gives the counters of replaying every attempt', () => {
    fc.assert(
      fc.property(
        fc.array(outcomeArb, { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        (outcomes, size) => {
          const ordered = [...outcomes].sort((a, b) => a.at.getTime() - b.at.getTime());
          let health: EndpointHealth = HEALTHY;
          for (let i = 0; i < ordered.length; i += size) {
            health = applyHealthChange(health, healthChangeOf(ordered.slice(i, i + size)));
          }
          expect(health).toEqual(replay(outcomes));
        },
      ),
    );
  });

  it('never disables a provider whose latest attempt succeeded', () => {
    fc.assert(
      fc.property(fc.array(outcomeArb, { maxLength: 30 }), (outcomes) => {
        const last = at(2_000_000);
        const health = replay([...outcomes, { at: last, result: 'delivered' }]);
        expect(healthVerdict(health, last, { failingForMs: 1, deadInARow: 1 })).toEqual({
          disable: false,
        });
      }),
    );
  });

  it('a stricter rule disables whenever a looser one does', () => {
    fc.assert(
      fc.property(
        fc.array(outcomeArb, { maxLength: 30 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 2_000_000 }),
        (outcomes, dead, period) => {
          const health = replay(outcomes);
          const now = at(2_000_000);
          const loose = healthVerdict(health, now, {
            failingForMs: period * 2,
            deadInARow: dead + 1,
          });
          const strict = healthVerdict(health, now, { failingForMs: period, deadInARow: dead });
          if (loose.disable) expect(strict.disable).toBe(true);
        },
      ),
    );
  });
});
