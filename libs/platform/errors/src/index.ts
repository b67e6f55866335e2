export * from './domain-error';
export * from './http-mapping';
export * from './grpc-mapping';
