import { MemoryReplayStore } from './memory-replay.store';
import { replayStoreContract } from './replay-store.contract';

replayStoreContract('in-memory', async () => new MemoryReplayStore());
