export * from './express-errors';
