export * from './safe-regex.validator';
