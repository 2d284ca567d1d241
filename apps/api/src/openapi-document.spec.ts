import { documentProblems } from '../../../test/support/openapi-schema-check';
import { openApiDocument } from './openapi-document';

describe('the query API OpenAPI document', () => {
  it('gives every operation its own operationId and resolves every $ref', () => {
    expect(documentProblems(openApiDocument)).toEqual([]);
  });

  it('names the operations a generated client calls', () => {
    const paths: Record<string, Record<string, { operationId: string }>> = openApiDocument.paths;
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids).toEqual([
      'searchEvents',
      'getDetection',
      'searchDetectionEvents',
      'listDetectionUsers',
      'getInvestigation',
    ]);
  });
});
