import type { InvestigationUpdate } from '@vigil/contracts';

/** The investigation as the processor sees it (SPEC §2.3, §6.3): what a notification says, and the report. */
export interface InvestigationSnapshot extends Omit<
  InvestigationUpdate,
  'notificationId' | 'fingerprint' | 'decidedAt'
> {
  /**
   * The report content (summary, confidence, recommended action, findings, person context...),
   * any JSON value. Leave out timestamps such as updated_at: they change on a resend without the
   * content changing.
   */
  report: unknown;
}
