export * from './express-errors';
export * from './http-drain';
