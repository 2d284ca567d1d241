import { validatePagerDutyRoutingKey } from './validate-pagerduty-routing-key';

function errorOf(input: unknown): string {
  const result = validatePagerDutyRoutingKey(input);
  if (result.ok) throw new Error(`accepted ${String(input)}`);
  expect(result.errors).toEqual([{ field: 'routingKey', message: expect.any(String) }]);
  return result.errors[0].message;
}

describe('validatePagerDutyRoutingKey', () => {
  it('accepts 32 letters and digits: service integration keys and ruleset keys', () => {
    for (const key of ['e93facc04764012d7bfb002500d5d1a6', 'R02F2UVVS8GV2FGOGMNJCSVXY5AGQ8BM']) {
      expect(validatePagerDutyRoutingKey(` ${key} `)).toEqual({ ok: true, value: key });
    }
  });

  it('asks for the key when there is none', () => {
    for (const input of [undefined, '', '  ', 7]) {
      expect(errorOf(input)).toMatch(/^Enter the integration key/);
    }
  });

  it('says how long a key must be and how long this one is', () => {
    expect(errorOf('e93facc04764012d7bfb002500d5d1a')).toBe('must be 32 characters long, not 31');
    expect(errorOf('e93facc04764012d7bfb002500d5d1a6f')).toBe('must be 32 characters long, not 33');
  });

  it('recognises a REST API key', () => {
    expect(errorOf('y_NbAkKc66ryYTWUXYEu')).toMatch(/this looks like a REST API key/);
  });

  it('names the first character that is not a letter or digit', () => {
    expect(errorOf('e93facc0-4764-012d-7bfb-002500d5')).toBe(
      'must hold only letters and digits, not "-"',
    );
  });
});
