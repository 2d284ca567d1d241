import type { SignInInstruments } from '@vigil/ops';
import type { SignInObserver } from '@vigil/workspace';

/** Counts every sign-in outcome in `vigil_web_sign_ins_total` (the log and audit say the rest). */
export function signInCounters(instruments: SignInInstruments): SignInObserver {
  return {
    succeeded: () => instruments.attempted('success'),
    failed: () => instruments.attempted('failure'),
    throttled: () => instruments.attempted('throttled'),
  };
}
