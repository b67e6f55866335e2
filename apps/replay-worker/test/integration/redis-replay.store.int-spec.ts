import { randomUUID } from 'node:crypto';
import { RedisReplayStore } from '../../src/jobs/redis-replay.store';
import { replayStoreContract } from '../../src/jobs/replay-store.contract';

replayStoreContract('Redis', () => RedisReplayStore.connect(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `replay-it-${randomUUID()}`));
