export * from './load-env';
export * from './shutdown';
