import { presetPermissions } from '@vigil/control-plane';
import {
  UsageError,
  buildPermissions,
  parseExpiresArg,
  parseInstantArg,
  parsePresetArg,
  parseScopeArg,
} from './parse-args';

describe('parseScopeArg', () => {
  it('reads scope:level', () => {
    expect(parseScopeArg('detection:read')).toEqual({ scope: 'detection', level: 'read' });
    expect(parseScopeArg('admin:write')).toEqual({ scope: 'admin', level: 'write' });
    expect(parseScopeArg('risk:none')).toEqual({ scope: 'risk', level: 'none' });
  });

  it('accepts dashes in scope keys, any case and level aliases', () => {
    expect(parseScopeArg('Shadow-IT:RW')).toEqual({ scope: 'shadow_it', level: 'write' });
    expect(parseScopeArg('password_compromise:read-only')).toEqual({
      scope: 'password_compromise',
      level: 'read',
    });
  });

  it('names what is wrong', () => {
    expect(() => parseScopeArg('detection')).toThrow(/not <scope>:<level>/);
    expect(() => parseScopeArg('detection:')).toThrow(UsageError);
    expect(() => parseScopeArg(':read')).toThrow(UsageError);
    expect(() => parseScopeArg('detections:read')).toThrow(
      /unknown scope "detections"; scopes: admin/,
    );
    expect(() => parseScopeArg('detection:admin')).toThrow(
      /unknown level "admin"; levels: none, read, write/,
    );
  });
});

describe('parsePresetArg and buildPermissions', () => {
  it('applies the preset first and each scope on top', () => {
    expect(parsePresetArg('read')).toBe('read');
    expect(() => parsePresetArg('all')).toThrow(/unknown preset/);
    const permissions = buildPermissions('read', [
      { scope: 'admin', level: 'none' },
      { scope: 'detection', level: 'write' },
    ]);
    expect(permissions).toEqual({
      ...presetPermissions('read'),
      admin: 'none',
      detection: 'write',
    });
  });

  it('grants only the given scopes without a preset; a later grant wins', () => {
    expect(
      buildPermissions(undefined, [
        { scope: 'email', level: 'write' },
        { scope: 'email', level: 'read' },
      ]),
    ).toEqual({ email: 'read' });
    expect(buildPermissions(undefined, [])).toEqual({});
  });
});

describe('parseExpiresArg', () => {
  it('reads a number of days', () => {
    expect(parseExpiresArg('30d')).toEqual({ expiresInDays: 30 });
    expect(parseExpiresArg('365D')).toEqual({ expiresInDays: 365 });
  });

  it('reads an ISO date as 00:00 UTC and a date-time with its zone', () => {
    expect(parseExpiresArg('2026-03-01')).toEqual({ expiresAt: new Date('2026-03-01T00:00:00Z') });
    expect(parseExpiresArg('2026-03-01T09:30:00Z')).toEqual({
      expiresAt: new Date('2026-03-01T09:30:00Z'),
    });
    expect(parseExpiresArg('2026-03-01T11:30+02:00')).toEqual({
      expiresAt: new Date('2026-03-01T09:30:00Z'),
    });
  });

  it('refuses anything else, including impossible dates and zone-less times', () => {
    for (const bad of [
      '30',
      'd',
      '30 days',
      '1y',
      '-5d',
      '2026-02-30',
      '2026-13-01',
      '2026-03-01T09:00',
      'tomorrow',
    ]) {
      expect(() => parseExpiresArg(bad)).toThrow(UsageError);
    }
  });
});

describe('parseInstantArg', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('reads a time ago in minutes, hours or days', () => {
    expect(parseInstantArg('30m', now)).toEqual(new Date('2026-03-10T11:30:00Z'));
    expect(parseInstantArg('12h', now)).toEqual(new Date('2026-03-10T00:00:00Z'));
    expect(parseInstantArg('7D', now)).toEqual(new Date('2026-03-03T12:00:00Z'));
  });

  it('reads ISO dates and date-times with a zone', () => {
    expect(parseInstantArg('2026-03-01', now)).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(parseInstantArg('2026-03-01T09:30+01:00', now)).toEqual(
      new Date('2026-03-01T08:30:00Z'),
    );
  });

  it('refuses anything else, saying which forms it takes', () => {
    for (const bad of ['yesterday', '7', '1y', '2026-02-30', '2026-03-01T09:00']) {
      expect(() => parseInstantArg(bad, now)).toThrow(/is not a time; use for example 7d/);
    }
  });
});
