export * from './errors.ts';
export * from './envelope.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './swap.ts';
export * from './turnover.ts';
export * from './ledger.ts';
export * from './chain.ts';
