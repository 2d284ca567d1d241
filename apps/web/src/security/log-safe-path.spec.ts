import { logSafePath } from './log-safe-path';

describe('logSafePath', () => {
  it('hides the secret of a one-time link, and nothing else', () => {
    expect(logSafePath(`/reset-password/${'A'.repeat(43)}`)).toBe('/reset-password/[redacted]');
    expect(logSafePath('/invitation/abc_-x?x=1')).toBe('/invitation/[redacted]?x=1');
    expect(logSafePath('/settings/members/123/reset-password')).toBe(
      '/settings/members/123/reset-password',
    );
  });
});
