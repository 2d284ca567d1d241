import {
  type AuditContext,
  type FallbackDestinationInput,
  type FallbackDestinationView,
} from '@vigil/control-plane';

/**
 * Who receives a delivery that died after its last retry (FallbackDestinationService): a global
 * destination and one per detection. Refusals are FallbackErrors naming the field; a change is
 * audited under `audit`. Setting nothing removes the destination (null).
 */
export interface FallbackDestinations {
  show(detectionId?: string): Promise<{
    global: FallbackDestinationView | null;
    detection: FallbackDestinationView | null;
  }>;
  setGlobal(
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null>;
  setForDetection(
    detectionId: string,
    input: FallbackDestinationInput,
    audit: AuditContext,
  ): Promise<FallbackDestinationView | null>;
}
