export * from './auth.ts';
export * from './ledger.ts';
export * from './transfers.ts';
export * from './swap.ts';
export * from './two-factor.ts';
export * from './security.ts';
