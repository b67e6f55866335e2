import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by main.ts (the ledger as its own process; the embedded launcher, which loads
 * service.js, keeps its own settings).
 *
 * Prisma's query compiler is a WebAssembly module (its small build, see schema.prisma). Its
 * optimizing (TurboFan) tier costs about 15 MB of resident memory more (40 MB for the fast
 * build) for queries that are off the hot path now (RecordStep, GetTraceHeader and the outbox
 * relay run on prepared statements); the baseline tier (Liftoff) runs them. Set before the
 * module is compiled, at the first Prisma query.
 */
setFlagsFromString('--liftoff-only');
