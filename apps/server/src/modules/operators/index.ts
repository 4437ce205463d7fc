export { checkOperator, operatorStanding } from './guard.ts';
export { bootstrapAdmin } from './service.ts';
export { ROUTE_ROLES, rightFor, routeKey } from './permissions.ts';
