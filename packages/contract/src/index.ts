export * from './errors.ts';
export * from './envelope.ts';
export * from './common.ts';
export * from './auth.ts';
