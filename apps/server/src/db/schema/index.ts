export * from './auth.ts';
export * from './ledger.ts';
