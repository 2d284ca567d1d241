import { anEventInput, anInvestigationInput } from '../../../test/support/factories';
import { documentProblems, schemaViolations } from '../../../test/support/openapi-schema-check';
import { ingestOpenApiDocument } from './ingest-openapi-document';

const record = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const violations = (name: string, value: unknown) =>
  schemaViolations(ingestOpenApiDocument, record(name), value);

describe('the ingest API OpenAPI document', () => {
  it('gives every operation its own operationId and resolves every $ref', () => {
    expect(documentProblems(ingestOpenApiDocument)).toEqual([]);
  });

  it('accepts the records the contract accepts, with either timestamp form', () => {
    expect(violations('DetectionEvent', anEventInput())).toEqual([]);
    expect(violations('DetectionEvent', anEventInput({ happened: Date.UTC(2025, 4, 1) }))).toEqual(
      [],
    );
    expect(violations('DetectionEvent', anEventInput({ description: null }))).toEqual([]);
    expect(violations('Investigation', anInvestigationInput())).toEqual([]);
  });

  it('refuses, like the contract, an unknown field, a missing one and a wrong type', () => {
    expect(violations('DetectionEvent', anEventInput({ severity: 'high' }))).toEqual([
      '$: undeclared property severity',
    ]);
    const { id: _id, ...withoutId } = anEventInput();
    expect(violations('DetectionEvent', withoutId)).toEqual(['$: missing required id']);
    expect(violations('DetectionEvent', anEventInput({ risk_score: 'high' }))).toEqual([
      '$.risk_score: expected a number',
    ]);
    expect(violations('DetectionEvent', anEventInput({ happened: 'yesterday' }))).toEqual([
      '$.happened: matches 0 of the anyOf schemas',
    ]);
  });

  it('takes a batch as a JSON array of records or one record', () => {
    const body =
      ingestOpenApiDocument.paths['/ingest/v1/detection-events'].post.requestBody.content[
        'application/json'
      ].schema;
    expect(schemaViolations(ingestOpenApiDocument, body, [anEventInput(), anEventInput()])).toEqual(
      [],
    );
    expect(schemaViolations(ingestOpenApiDocument, body, anEventInput())).toEqual([]);
    expect(schemaViolations(ingestOpenApiDocument, body, [])).toEqual([
      '$: matches 0 of the oneOf schemas',
    ]);
  });
});
