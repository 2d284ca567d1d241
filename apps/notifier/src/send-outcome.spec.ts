import { attemptOutcomeOf } from './send-outcome';

describe('attemptOutcomeOf', () => {
  it('is success for a delivered attempt', () => {
    expect(attemptOutcomeOf({ ok: true, statusCode: 204, error: null })).toBe('success');
  });

  it('is the failure the sender named', () => {
    for (const failure of ['http_error', 'network_error', 'timeout', 'refused'] as const) {
      expect(attemptOutcomeOf({ ok: false, statusCode: null, error: 'x', failure })).toBe(failure);
    }
  });

  it('counts a failure that does not say why as a network error', () => {
    expect(attemptOutcomeOf({ ok: false, statusCode: null, error: 'socket hang up' })).toBe(
      'network_error',
    );
  });
});
