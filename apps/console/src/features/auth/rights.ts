import type { OperatorRole } from '@coffer/contract/admin';

/**
 * The role each console page needs, as the server's permissions table has it for the routes the
 * page calls (apps/server/src/modules/operators/permissions.ts); 'any': every operator. The menu
 * hides what an operator's roles cannot use; the server refuses it anyway.
 */
export const PAGE_RIGHTS: Record<string, OperatorRole | 'any'> = {
  '/': 'any',
  '/users': 'support',
  '/ledger': 'finance',
  '/swap': 'admin',
  '/networks': 'admin',
  '/withdrawals': 'finance',
  '/content/banners': 'admin',
  '/content/notices': 'admin',
  '/content/help': 'admin',
  '/activities': 'admin',
  '/audit-trail': 'any',
  '/alerts': 'any',
  '/operators': 'admin',
};

/** Whether roles allow the page at `path` (a page not listed: shown, the server decides). */
export function mayOpen(path: string, roles: readonly OperatorRole[]): boolean {
  const right = PAGE_RIGHTS[path];
  if (right === undefined || right === 'any') return true;
  return roles.includes(right);
}
