import { type EventReadModel, type InvestigationReport } from '@vigil/search';
import { WorkspaceError } from '../workspace-error';

/** An investigation report (the `action_url` of investigation webhooks, SPEC.md §6.3). */
export class ShowInvestigation {
  constructor(private readonly readModel: Pick<EventReadModel, 'getInvestigation'>) {}

  async execute(query: { readonly investigationId: string }): Promise<InvestigationReport> {
    const report = await this.readModel.getInvestigation(query.investigationId);
    if (report === null) throw new WorkspaceError('not_found', 'No such investigation');
    return report;
  }
}
