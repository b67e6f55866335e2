export * from './tracing';
export * from './metrics';
export * from './ops-server';
export * from './metrics-text';
