export * from './tracing';
export * from './ops-server';
