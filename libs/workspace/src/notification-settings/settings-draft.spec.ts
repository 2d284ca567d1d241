import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { aSettingsDraft as aDraft } from '../testing/a-settings-draft';
import { checkSettingsDraft } from './settings-draft';

describe('checkSettingsDraft', () => {
  it('turns a valid draft into settings with the stored silence', () => {
    expect(
      checkSettingsDraft(
        aDraft({ emailEnabled: true, recipients: ['Ops@Example.com'], frequency: 'immediate' }),
        { kind: 'disabled' },
        [],
      ),
    ).toEqual({
      ok: true,
      settings: {
        ...DEFAULT_NOTIFICATION_SETTINGS,
        emailEnabled: true,
        recipients: ['ops@example.com'],
        frequency: 'immediate',
        silence: { kind: 'disabled' },
      },
    });
  });

  it('counts a blank number as missing, not as the default', () => {
    const checked = checkSettingsDraft(
      aDraft({ batchWindowMinutes: undefined, maxEventsPerNotification: undefined }),
      { kind: 'none' },
      [],
    );
    expect(checked).toEqual({
      ok: false,
      problems: [
        { field: 'batchWindowMinutes', message: 'is required' },
        { field: 'maxEventsPerNotification', message: 'is required' },
      ],
    });
  });

  it('refuses a provider that is not enrolled, with the rules’ other problems', () => {
    const checked = checkSettingsDraft(
      aDraft({ webhookEnabled: true, webhookProviderIds: ['gone'], frequency: 'hourly' }),
      { kind: 'none' },
      ['provider-1'],
    );
    expect(!checked.ok && checked.problems.map((p) => p.field)).toEqual([
      'webhookProviderIds[]',
      'frequency',
    ]);
  });
});
