/** What every console route's OpenAPI entry shares: its tag, its token, who may call it. */
export const tags = ['admin'];
export const security = [{ token: [] }];
export const ROLE = 'Operators only: HTTP 403 for a signed-in user, 2001 signed out.';
