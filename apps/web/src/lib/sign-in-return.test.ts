import { describe, expect, it } from 'vitest';
import { loginPath, returnPathFrom, safeReturnPath } from './sign-in-return';

describe('sign-in return target', () => {
  it('keeps in-app paths with their query', () => {
    expect(safeReturnPath('/transfer')).toBe('/transfer');
    expect(safeReturnPath('/swap?amount=25&from=1&to=2')).toBe('/swap?amount=25&from=1&to=2');
    expect(returnPathFrom(`?redirect=${encodeURIComponent('/bill?type=swap')}`)).toBe('/bill?type=swap');
  });

  it('refuses other origins, odd schemes and the sign-in pages', () => {
    for (const raw of [
      null,
      '',
      'https://evil.example.com/',
      '//evil.example.com/x',
      '/\\evil.example.com',
      'javascript:alert(1)',
      '/ok\n',
      '/login',
      '/register?x=1',
      `/${'a'.repeat(600)}`,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBe('/');
    }
  });

  it('builds the sign-in link', () => {
    expect(loginPath('/transfer')).toBe('/login?redirect=%2Ftransfer');
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('//evil.example.com')).toBe('/login');
  });
});
