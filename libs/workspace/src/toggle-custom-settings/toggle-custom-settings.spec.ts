import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { ToggleCustomSettings } from './toggle-custom-settings';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('ToggleCustomSettings', () => {
  it('starts custom settings from a copy of the global ones, and drops them when off', async () => {
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const settings = new InMemorySettingsStore();
    settings.global = { ...settings.global, frequency: 'immediate' };
    const toggle = new ToggleCustomSettings(readModel, settings);

    await toggle.execute({ detectionId: 'det-1', useCustom: true }, anAuditContext());
    expect(await settings.getDetectionConfig('det-1')).toEqual({
      useCustom: true,
      custom: settings.global,
    });
    await toggle.execute({ detectionId: 'det-1', useCustom: false }, anAuditContext());
    expect(await settings.getDetectionConfig('det-1')).toEqual({ useCustom: false, custom: null });
  });

  it('keeps no settings for a detection that does not exist', async () => {
    const settings = new InMemorySettingsStore();
    await expect(
      new ToggleCustomSettings(new InMemoryReadModel(), settings).execute(
        {
          detectionId: 'det-typo',
          useCustom: true,
        },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(settings.detections.size).toBe(0);
  });
  it('records each toggle in the audit log with the configuration before and after', async () => {
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const settings = new InMemorySettingsStore();
    const toggle = new ToggleCustomSettings(readModel, settings);
    await toggle.execute({ detectionId: 'det-1', useCustom: true }, anAuditContext());
    expect(settings.audited).toEqual([
      {
        action: 'settings.detection_changed',
        context: anAuditContext(),
        target: { type: 'detection', id: 'det-1' },
        details: {
          change: 'custom_on',
          before: { useCustom: false, custom: null },
          after: { useCustom: true, custom: settings.global },
        },
      },
    ]);
  });
});
