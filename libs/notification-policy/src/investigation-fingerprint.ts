import { canonicalJson } from './canonical-json';
import type { InvestigationSnapshot } from './investigation-snapshot';
import { sha1Hex } from './sha1';

/**
 * Hex SHA-1 of what makes an investigation update worth notifying: status, outcome, headline and
 * the report, serialized canonically (key order does not matter). Person and detection names are
 * left out: they are context, not news.
 */
export function investigationFingerprint(investigation: InvestigationSnapshot): string {
  const { status, outcome, headline, report } = investigation;
  return sha1Hex(canonicalJson({ status, outcome, headline, report }));
}
