export * from './free-port';
export * from './production-stack';
export * from './http-client';
export * from './schema-match';
export * from './processes';
export * from './gateway-fixture';
export * from './control-plane-fixture';
export * from './metrics';
