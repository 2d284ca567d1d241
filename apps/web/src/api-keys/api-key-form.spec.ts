import { SCOPE_KEYS } from '@vigil/control-plane';
import {
  EMPTY_FORM,
  formErrors,
  grantedCount,
  parseExpiry,
  readApiKeyForm,
  unknownScopeFields,
  withPreset,
} from './api-key-form';

describe('the API key form', () => {
  it('reads the name, expiry and a level per scope, defaulting missing scopes to None', () => {
    const values = readApiKeyForm({
      name: 'SIEM',
      expires_in_days: '30',
      'scope.detection': 'read',
      'scope.webhook': 'write',
      _csrf: 'x',
    });
    expect(values.name).toBe('SIEM');
    expect(values.expiresInDays).toBe('30');
    expect(values.levels.detection).toBe('read');
    expect(values.levels.webhook).toBe('write');
    expect(values.levels.admin).toBe('none');
    expect(grantedCount(values)).toBe(2);
  });

  it('starts with every scope at None and 90 days', () => {
    expect(grantedCount(EMPTY_FORM)).toBe(0);
    expect(EMPTY_FORM.expiresInDays).toBe('90');
  });

  it('applies a preset to all 14 scopes', () => {
    const values = withPreset(EMPTY_FORM, 'read');
    expect(SCOPE_KEYS).toHaveLength(14);
    expect(grantedCount(values)).toBe(14);
    expect(new Set(Object.values(values.levels))).toEqual(new Set(['read']));
  });

  it('accepts only the offered expiries', () => {
    expect(parseExpiry({ ...EMPTY_FORM, expiresInDays: '365' })).toBe(365);
    expect(parseExpiry({ ...EMPTY_FORM, expiresInDays: '400' })).toMatchObject({
      field: 'expiresInDays',
    });
  });

  it('keeps scope fields it does not know, so the token rules refuse them', () => {
    expect(unknownScopeFields({ 'scope.root': 'write', 'scope.risk': 'read', name: 'x' })).toEqual({
      root: 'write',
    });
  });

  it('places each problem next to its control, in plain sentences', () => {
    expect(
      formErrors([
        { field: 'name', message: 'is required' },
        { field: 'permissions', message: 'at least one scope must be above None' },
        { field: 'permissions.risk', message: 'unknown level "all"' },
        { field: 'permissions.root', message: 'unknown scope' },
        { field: 'expiresInDays', message: 'must be one of 30 days, 60 days, 90 days or 1 year' },
      ]),
    ).toEqual({
      name: 'Name is required.',
      permissions: 'Choose at least one scope above None.',
      scopes: { risk: 'Choose None, Read-only or Read and write.' },
      expiresInDays: 'Expiration must be one of 30 days, 60 days, 90 days or 1 year.',
      other: ['Unknown scope “root”. Reload the page and try again.'],
    });
  });
});
