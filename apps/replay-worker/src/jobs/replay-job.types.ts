/** The override fields of POST /replay, as the API names them (also the cache key's input). */
export interface ReplayOverrides {
  force_model?: string;
  compare_models?: string[];
  force_models?: string[];
  max_cost?: number;
}

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

/** Where a job is in its work, so a job redelivered after a crash resumes instead of starting over. */
export interface VariantProgress {
  /** The model every non-fanout step is forced to (compare_models / force_model), if any. */
  model: string | null;
  replayTraceId?: string;
  /** plan key → replay step id of the steps already recorded. */
  recorded: Record<string, number>;
  completed?: boolean;
}

export interface ReplayJobRecord {
  jobId: string;
  projectId: number;
  traceId: string;
  overrides: ReplayOverrides;
  cacheKey: string;
  status: JobStatus;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  attempts: number;
  workerId?: string;
  progress?: VariantProgress[];
  /** The completed result (spec: Replay job and result). */
  result?: Record<string, unknown>;
  error?: string;
}
