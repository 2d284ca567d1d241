import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { SilenceDetection } from './silence-detection';
import { anAuditContext } from '../testing/in-memory-audit-trail';

const NOW = Date.parse('2026-03-01T00:00:00Z');

describe('SilenceDetection', () => {
  it('snoozes an inheriting detection into custom settings copied from the global ones', async () => {
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const settings = new InMemorySettingsStore();
    const silence = new SilenceDetection(readModel, settings);

    await expect(
      silence.execute({ detectionId: 'det-1', choice: '1h', now: NOW }, anAuditContext()),
    ).resolves.toBe('snoozed');
    expect(await settings.getDetectionConfig('det-1')).toEqual({
      useCustom: true,
      custom: { ...settings.global, silence: { kind: 'snoozed', until: NOW + 3_600_000 } },
    });
    await expect(
      silence.execute({ detectionId: 'det-1', choice: 'resume', now: NOW }, anAuditContext()),
    ).resolves.toBe('resumed');
    expect(await settings.getDetectionConfig('det-1')).toEqual({
      useCustom: true,
      custom: { ...settings.global, silence: { kind: 'none' } },
    });
  });

  it('refuses a detection that does not exist', async () => {
    await expect(
      new SilenceDetection(new InMemoryReadModel(), new InMemorySettingsStore()).execute(
        {
          detectionId: 'det-typo',
          choice: 'disable',
          now: NOW,
        },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
  it('records the silence in the audit log, what it was and what it became', async () => {
    const readModel = new InMemoryReadModel();
    readModel.addDetection('det-1');
    const settings = new InMemorySettingsStore();
    await new SilenceDetection(readModel, settings).execute(
      { detectionId: 'det-1', choice: 'disable', now: NOW },
      anAuditContext(),
    );
    expect(settings.audited).toEqual([
      expect.objectContaining({
        action: 'settings.detection_changed',
        target: { type: 'detection', id: 'det-1' },
        details: expect.objectContaining({
          change: 'disabled',
          before: { useCustom: false, custom: null },
          after: { useCustom: true, custom: { ...settings.global, silence: { kind: 'disabled' } } },
        }),
      }),
    ]);
  });
});
