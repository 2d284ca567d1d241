import { aSettingsDraft } from '../testing/a-settings-draft';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ChangeDetectionSettings } from './change-detection-settings';
import { anAuditContext } from '../testing/in-memory-audit-trail';

function setUp() {
  const readModel = new InMemoryReadModel();
  readModel.addDetection('det-1');
  const settings = new InMemorySettingsStore();
  const change = new ChangeDetectionSettings(readModel, settings, new InMemoryWebhookProviders());
  return { settings, change };
}

describe('ChangeDetectionSettings', () => {
  it('replaces a custom detection’s settings, keeping its silence', async () => {
    const { settings, change } = setUp();
    await settings.saveDetectionConfig('det-1', {
      useCustom: true,
      custom: { ...settings.global, silence: { kind: 'disabled' } },
    });
    const draft = aSettingsDraft({ emailEnabled: true, recipients: ['soc@example.com'] });
    await expect(change.execute({ detectionId: 'det-1', draft }, anAuditContext())).resolves.toBe(
      'saved',
    );
    expect((await settings.getDetectionConfig('det-1')).custom).toMatchObject({
      emailEnabled: true,
      recipients: ['soc@example.com'],
      silence: { kind: 'disabled' },
    });
  });

  it('saves nothing for a detection that follows the global settings', async () => {
    const { settings, change } = setUp();
    await expect(
      change.execute({ detectionId: 'det-1', draft: aSettingsDraft() }, anAuditContext()),
    ).resolves.toBe('not_custom');
    expect(settings.detections.size).toBe(0);
  });

  it('refuses invalid settings with the fields named', async () => {
    const { settings, change } = setUp();
    await settings.saveDetectionConfig('det-1', { useCustom: true, custom: settings.global });
    const draft = aSettingsDraft({ emailEnabled: true, recipients: ['nobody@'] });
    await expect(
      change.execute({ detectionId: 'det-1', draft }, anAuditContext()),
    ).rejects.toMatchObject({
      code: 'invalid_settings',
      details: [{ field: 'recipients[0]' }],
    });
  });

  it('refuses a detection that does not exist', async () => {
    const { change } = setUp();
    await expect(
      change.execute({ detectionId: 'det-typo', draft: aSettingsDraft() }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
  it('records a save in the audit log with the configuration before and after, and no refusal', async () => {
    const { settings, change } = setUp();
    const before = { useCustom: true, custom: settings.global };
    await settings.saveDetectionConfig('det-1', before);
    const refused = aSettingsDraft({ emailEnabled: true, recipients: ['nobody@'] });
    await change.execute({ detectionId: 'det-1', draft: refused }, anAuditContext()).catch(() => 0);
    const draft = aSettingsDraft({ emailEnabled: true, recipients: ['soc@example.com'] });
    await change.execute({ detectionId: 'det-1', draft }, anAuditContext());
    expect(settings.audited).toEqual([
      {
        action: 'settings.detection_changed',
        context: anAuditContext(),
        target: { type: 'detection', id: 'det-1' },
        details: {
          change: 'settings',
          before,
          after: await settings.getDetectionConfig('det-1'),
        },
      },
    ]);
  });
});
