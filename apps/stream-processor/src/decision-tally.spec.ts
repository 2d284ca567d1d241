import { DecisionTally } from './decision-tally';

describe('DecisionTally', () => {
  it('reports the decisions of a batch by mode and channel', () => {
    const tally = new DecisionTally();
    tally.add('immediate', [{ channel: 'webhook' }, { channel: 'email' }]);
    tally.add('immediate', [{ channel: 'webhook' }]);
    tally.add('batch', [{ channel: 'email' }]);
    const reported: string[] = [];
    tally.reportTo((mode, channel, count) => reported.push(`${mode} ${channel} ${count}`));
    expect(reported.sort()).toEqual(['batch email 1', 'immediate email 1', 'immediate webhook 2']);
  });

  it('reports nothing without a counter', () => {
    const tally = new DecisionTally();
    tally.add('threshold', [{ channel: 'webhook' }]);
    expect(() => tally.reportTo(undefined)).not.toThrow();
  });
});
