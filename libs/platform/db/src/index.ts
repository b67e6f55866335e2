export * from './migrations';
export * from './prisma';
export * from './schema-check';
export * from './test-database';
export * from './outbox-relay';
export * from './prisma-outbox';
export * from './project-data-deletion';
