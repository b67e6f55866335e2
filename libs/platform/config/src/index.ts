export * from './load-env';
