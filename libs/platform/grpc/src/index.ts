export * from './types';
export * from './server';
export * from './client';
export * from './health-client';
export * from './api-key-verifier';
export * from './grpc-app';
export * from './control-plane-caches';
export * from './project-deletion';
