import { parseRecordBatch } from './parse-record-batch';

describe('parseRecordBatch', () => {
  it('takes a JSON array as the records', () => {
    expect(parseRecordBatch([{ a: 1 }, { b: 2 }], 'json')).toEqual({
      ok: true,
      records: [{ a: 1 }, { b: 2 }],
      lineErrors: new Map(),
    });
  });

  it('takes one JSON object as a batch of one', () => {
    expect(parseRecordBatch({ a: 1 }, 'json')).toMatchObject({ ok: true, records: [{ a: 1 }] });
  });

  it('refuses a JSON scalar', () => {
    expect(parseRecordBatch(42, 'json')).toEqual({
      ok: false,
      message: 'Expected a JSON array of records or one JSON object',
    });
  });

  it('reads NDJSON line by line, reporting a bad line without dropping the others', () => {
    const result = parseRecordBatch('{"a":1}\n{oops\n\n{"c":3}\r\n', 'ndjson');
    expect(result).toEqual({
      ok: true,
      records: [{ a: 1 }, undefined, { c: 3 }],
      lineErrors: new Map([[1, 'line 2 is not valid JSON']]),
    });
  });
});
