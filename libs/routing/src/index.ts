/**
 * Routing: tier classification, the model of the tier, its fallback path and the estimated
 * cost. Pure domain code; the router service serves it over gRPC, edge runs it in-process.
 */
export * from './routing';
export { routeForProject, toRegistryModel } from './route-for-project';
