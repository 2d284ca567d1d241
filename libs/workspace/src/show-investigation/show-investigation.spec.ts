import { type InvestigationReport } from '@vigil/search';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { ShowInvestigation } from './show-investigation';

describe('ShowInvestigation', () => {
  it('shows a report, and refuses an unknown investigation as not found', async () => {
    const readModel = new InMemoryReadModel();
    const report = { id: 'inv-1', headline: 'Shared password' } as InvestigationReport;
    readModel.investigations.set(report.id, report);
    const show = new ShowInvestigation(readModel);
    await expect(show.execute({ investigationId: 'inv-1' })).resolves.toBe(report);
    await expect(show.execute({ investigationId: 'inv-2' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
