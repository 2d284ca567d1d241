import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { SilenceGlobalNotifications } from './silence-global-notifications';
import { anAuditContext } from '../testing/in-memory-audit-trail';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;

describe('SilenceGlobalNotifications', () => {
  it('snoozes from the time given, disables and resumes, saying which it did', async () => {
    const settings = new InMemorySettingsStore();
    const silence = new SilenceGlobalNotifications(settings);
    await expect(silence.execute({ choice: '24h', now: NOW }, anAuditContext())).resolves.toBe(
      'snoozed',
    );
    expect(settings.global.silence).toEqual({ kind: 'snoozed', until: NOW + 24 * HOUR });
    await expect(silence.execute({ choice: 'disable', now: NOW }, anAuditContext())).resolves.toBe(
      'disabled',
    );
    expect(settings.global.silence).toEqual({ kind: 'disabled' });
    await expect(silence.execute({ choice: 'resume', now: NOW }, anAuditContext())).resolves.toBe(
      'resumed',
    );
    expect(settings.global.silence).toEqual({ kind: 'none' });
  });
  it('records each silence in the audit log with the settings before and after', async () => {
    const settings = new InMemorySettingsStore();
    const before = settings.global;
    await new SilenceGlobalNotifications(settings).execute(
      { choice: 'disable', now: NOW },
      anAuditContext(),
    );
    expect(settings.audited).toEqual([
      {
        action: 'settings.global_changed',
        context: anAuditContext(),
        target: { type: 'settings', id: 'global' },
        details: { change: 'disabled', before, after: settings.global },
      },
    ]);
  });
});
