import fc from 'fast-check';
import { TargetConcurrencyLimits } from './target-concurrency-limits';

const limits = () => new TargetConcurrencyLimits({ initial: 4, max: 32, slowMs: 1_000 });
const fast = { ok: true, latencyMs: 20 };

describe('TargetConcurrencyLimits', () => {
  it('starts every target at the initial limit', () => {
    expect(limits().limitOf('https://soar.example.com')).toBe(4);
  });

  it('grows a target that answers fast while it uses its slots, up to the maximum', () => {
    const l = limits();
    for (let i = 0; i < 100; i++) l.record('a', fast, l.limitOf('a'));
    expect(l.limitOf('a')).toBe(32);
  });

  it('does not grow a target that uses less than half its limit', () => {
    const l = limits();
    for (let i = 0; i < 100; i++) l.record('a', fast, 1);
    expect(l.limitOf('a')).toBe(4);
  });

  it('halves the limit on a failure and on a slow answer, never below one', () => {
    const l = limits();
    for (let i = 0; i < 20; i++) l.record('a', fast, 32);
    expect(l.limitOf('a')).toBe(24);
    l.record('a', { ok: false, latencyMs: 5 }, 24);
    expect(l.limitOf('a')).toBe(12);
    l.record('a', { ok: true, latencyMs: 1_500 }, 12);
    expect(l.limitOf('a')).toBe(6);
    for (let i = 0; i < 10; i++) l.record('a', { ok: false, latencyMs: 10_000 }, 1);
    expect(l.limitOf('a')).toBe(1);
  });

  it('keeps each target on its own', () => {
    const l = limits();
    for (let i = 0; i < 3; i++) l.record('bad', { ok: false, latencyMs: 10_000 }, 4);
    for (let i = 0; i < 3; i++) l.record('good', fast, 4);
    expect([l.limitOf('bad'), l.limitOf('good')]).toEqual([1, 7]);
  });

  it('keeps no entry for a target back at the initial limit', () => {
    const l = limits();
    l.record('a', fast, 4);
    expect(l.size).toBe(1);
    l.record('a', { ok: false, latencyMs: 1 }, 5);
    l.record('a', fast, 2);
    l.record('a', fast, 3);
    expect(l.limitOf('a')).toBe(4);
    expect(l.size).toBe(0);
  });

  it('stays between one and the maximum whatever the answers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ok: fc.boolean(), latencyMs: fc.nat(20_000), inUse: fc.nat(64) })),
        (answers) => {
          const l = limits();
          for (const { ok, latencyMs, inUse } of answers) {
            l.record('t', { ok, latencyMs }, inUse);
            const limit = l.limitOf('t');
            if (limit < 1 || limit > 32 || !Number.isInteger(limit)) return false;
          }
          return true;
        },
      ),
    );
  });

  it('refuses limits that make no sense', () => {
    expect(() => new TargetConcurrencyLimits({ initial: 0, max: 4, slowMs: 1 })).toThrow(
      RangeError,
    );
    expect(() => new TargetConcurrencyLimits({ initial: 8, max: 4, slowMs: 1 })).toThrow(
      RangeError,
    );
  });
});
