import { safeNextPath } from './safe-redirect';

describe('safeNextPath', () => {
  it('keeps a local path with its query', () => {
    expect(safeNextPath('/settings/access/api-keys?x=1')).toBe('/settings/access/api-keys?x=1');
  });

  it('sends anything else home', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/a b',
      undefined,
      ['/x'],
    ]) {
      expect(safeNextPath(next)).toBe('/');
    }
  });
});
