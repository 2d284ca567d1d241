import { SIGN_IN_OUTCOMES, type MetricCatalogue, type SignInOutcome } from './metric-catalogue';

/** Sign-in attempts in the web application, by outcome. */
export class SignInInstruments {
  constructor(
    private readonly catalogue: MetricCatalogue,
    private readonly app: string,
    private readonly enabled: boolean,
  ) {
    if (!enabled) return;
    for (const outcome of SIGN_IN_OUTCOMES) catalogue.webSignIns.inc({ app, outcome }, 0);
  }

  attempted(outcome: SignInOutcome): void {
    if (!this.enabled) return;
    this.catalogue.webSignIns.inc({ app: this.app, outcome });
  }
}
