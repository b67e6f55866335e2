import { CapabilityError, GatewayError, isGatewayUnavailable, NotFoundError, ValidationError } from './errors';
import { FallbackProvider, type FallbackProviderOptions } from './fail-open/fallback-provider.client';
import { HttpTransport, type FetchLike, type QueryValue, type Sleep } from './http/http.transport';
import { normalizeRetry, type RetryOptions } from './http/retry.policy';
import { waitForReplay, type WaitForReplayOptions } from './replay/replay.poller';
import { ExecutionStream, type OpenedStream } from './stream/execution.stream';
import type {
  CheckParams,
  CheckResult,
  CompletedReplay,
  CompletedTrace,
  CreateTraceParams,
  ExecuteParams,
  ExecutionResult,
  ListTracesParams,
  LogParams,
  LogReceipt,
  ReplayJob,
  ReplayParams,
  ReplayRequestResult,
  RunParams,
  RunResult,
  SdkConfig,
  SimulateParams,
  SimulationResult,
  Stats,
  StatsParams,
  StreamParams,
  Trace,
  TraceDetail,
  TracePage,
  UnauditedTextResult,
} from './types';
import { SDK_HEADER, SDK_HEADER_VALUE } from './version';

/** Why a call went to the fallback provider instead of the gateway. */
export interface FailOpenEvent {
  operation: string;
  error: GatewayError;
}

export interface FailOpenOptions {
  provider: FallbackProviderOptions;
  /** Told about every unaudited call (log it: nothing else records it). */
  onFailOpen?: (event: FailOpenEvent) => void;
}

export interface GatewayClientOptions {
  /** The hosted gateway, or a private-network agent: only this address changes between them. */
  baseUrl: string;
  /** `ak_<key_id>.<secret>`. Server-side only: the key must not reach browser code. */
  apiKey: string;
  /**
   * Default (absent): fail-closed. A network failure or gateway 5xx rejects the call and nothing
   * reaches a provider. Set it to answer model calls from this provider instead, unaudited.
   */
  failOpen?: FailOpenOptions;
  /** Back-off for HTTP 500 (the only status the spec declares safe to retry): 3 retries, 1 s, 2 s, 4 s. */
  retry?: Partial<RetryOptions>;
  /** Per attempt, until response headers arrive (ms). Default 130 000 (the gateway allows a model call 120 s). */
  timeoutMs?: number;
  fetch?: FetchLike;
  /** For tests: replaces the back-off and poll waits. */
  sleep?: Sleep;
  /** Refuse to run where `window` exists unless set (the key would be exposed to users). */
  allowBrowser?: boolean;
}

const UNAUDITED_TRACE_PREFIX = 'unaudited-';
const CONFIG_RETRY_COOLDOWN_MS = 30_000;

const isUnauditedTrace = (traceId: string) => traceId.startsWith(UNAUDITED_TRACE_PREFIX);
const segment = (value: string | number) => encodeURIComponent(String(value));

/**
 * The API-key client: traces, executions, stream, runs, checks, logs, simulate, replay, stats.
 * GET /api/v1/sdk/config is read at initialisation (`connect`, `init`, or the first call) and
 * gates calls on the plan's capabilities. Every request carries the SDK-mode header.
 */
export class GatewayClient {
  private readonly transport: HttpTransport;
  private readonly fallback: FallbackProvider | undefined;
  private currentConfig: SdkConfig | null = null;
  private loading: Promise<SdkConfig | null> | undefined;
  private configRetryAt = 0;

  constructor(private readonly options: GatewayClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    if (typeof (globalThis as { window?: unknown }).window !== 'undefined' && !options.allowBrowser) {
      throw new TypeError('GatewayClient holds an API key and must not run in browser code (set allowBrowser to override)');
    }
    this.transport = new HttpTransport({
      baseUrl: options.baseUrl,
      headers: () => ({ authorization: `Bearer ${options.apiKey}`, [SDK_HEADER]: SDK_HEADER_VALUE }),
      retry: normalizeRetry(options.retry),
      timeoutMs: options.timeoutMs ?? 130_000,
      fetch: options.fetch,
      sleep: options.sleep,
    });
    this.fallback = options.failOpen ? new FallbackProvider(options.failOpen.provider, options.fetch) : undefined;
  }

  /** Creates a client and reads the SDK configuration. */
  static async connect(options: GatewayClientOptions): Promise<GatewayClient> {
    const client = new GatewayClient(options);
    await client.init();
    return client;
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The SDK configuration; null before initialisation, or while a fail-open client could not read it. */
  get config(): SdkConfig | null {
    return this.currentConfig;
  }

  get failOpenEnabled(): boolean {
    return this.fallback !== undefined;
  }

  /**
   * Reads GET /api/v1/sdk/config (once). Fail-closed, an unavailable gateway rejects; a fail-open
   * client carries on without it (capabilities unchecked) and tries again on a later call.
   */
  async init(signal?: AbortSignal): Promise<SdkConfig | null> {
    if (this.currentConfig) return this.currentConfig;
    if (this.fallback && Date.now() < this.configRetryAt) return null;
    this.loading ??= this.transport
      .json<SdkConfig>('GET', '/api/v1/sdk/config', { signal })
      .then(({ body }) => (this.currentConfig = body))
      .catch((error: unknown) => {
        if (this.fallback && isGatewayUnavailable(error)) {
          this.configRetryAt = Date.now() + CONFIG_RETRY_COOLDOWN_MS;
          return null;
        }
        throw error;
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async requireFeature(feature: keyof SdkConfig['features'] & string, what: string): Promise<void> {
    const config = await this.init();
    if (config && config.features[feature] !== true) throw new CapabilityError(`${what} is not included in this plan (sdk/config features.${feature} is false)`);
  }

  private get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T> {
    return this.transport.json<T>('GET', path, { query, signal }).then((response) => response.body);
  }

  private send<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return this.transport.json<T>(method, path, { body, signal }).then((response) => response.body);
  }

  /** Runs a gateway call; when the gateway is unavailable and fail-open is on, answers with `fallback` instead. */
  private async governed<T>(operation: string, call: () => Promise<T>, fallback?: (error: GatewayError) => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!this.fallback || !fallback || !isGatewayUnavailable(error)) throw error;
      this.options.failOpen?.onFailOpen?.({ operation, error });
      return fallback(error);
    }
  }

  private unauditedText(input: string | undefined, signal?: AbortSignal): ((error: GatewayError) => Promise<UnauditedTextResult>) | undefined {
    if (!this.fallback || input === undefined) return undefined;
    const provider = this.fallback;
    return async (error) => {
      const { output, model } = await provider.complete(input, error, signal);
      return { output, model, step_id: null, unaudited: true };
    };
  }

  // ---- traces ---------------------------------------------------------------------------------

  /** POST /api/v1/traces. Fail-open: a local placeholder (`unaudited: true`, id `unaudited-…`) that is never stored. */
  async createTrace(params: CreateTraceParams = {}, signal?: AbortSignal): Promise<Trace> {
    await this.init(signal);
    return this.governed('createTrace', () => this.send<Trace>('POST', '/api/v1/traces', params, signal), async () => ({
      id: `${UNAUDITED_TRACE_PREFIX}${globalThis.crypto.randomUUID()}`,
      status: 'pending',
      created_at: new Date().toISOString(),
      metadata: params.metadata ?? {},
      revenue: params.revenue ?? null,
      unaudited: true,
    }));
  }

  async listTraces(params: ListTracesParams = {}, signal?: AbortSignal): Promise<TracePage> {
    await this.init(signal);
    return this.get<TracePage>('/api/v1/traces', { page: params.page, per_page: params.per_page, status: params.status }, signal);
  }

  async getTrace(traceId: string, signal?: AbortSignal): Promise<TraceDetail> {
    if (this.fallback && isUnauditedTrace(traceId)) throw new NotFoundError(`Trace ${traceId} is an unaudited placeholder: the gateway never saw it`);
    await this.init(signal);
    return this.get<TraceDetail>(`/api/v1/traces/${segment(traceId)}`, undefined, signal);
  }

  /** PATCH /api/v1/traces/:id/complete. A placeholder trace completes locally, with no grades. */
  async completeTrace(traceId: string, signal?: AbortSignal): Promise<CompletedTrace> {
    if (this.fallback && isUnauditedTrace(traceId)) return this.unauditedCompletion(traceId);
    await this.init(signal);
    return this.governed('completeTrace', () => this.send<CompletedTrace>('PATCH', `/api/v1/traces/${segment(traceId)}/complete`, undefined, signal), async () => this.unauditedCompletion(traceId));
  }

  private unauditedCompletion(traceId: string): CompletedTrace {
    return {
      id: traceId,
      status: 'completed',
      created_at: new Date().toISOString(),
      metadata: {},
      revenue: null,
      unaudited: true,
      optimization_grade: null,
      grades: null,
      total_cost: 0,
      summary: { total_cost: 0, revenue: 0, gross_margin: 0, by_model: {}, by_infrastructure: {} },
    };
  }

  // ---- execution ------------------------------------------------------------------------------

  /**
   * POST /api/v1/executions: text, tool_calls_pending or blocked (all HTTP 200). Fail-open applies
   * to plain input only: a tool loop needs the conversation the gateway keeps.
   */
  async execute(params: ExecuteParams, signal?: AbortSignal): Promise<ExecutionResult> {
    const usesTools = (params.tools?.length ?? 0) > 0 || (params.tool_results?.length ?? 0) > 0;
    const fallback = usesTools ? undefined : this.unauditedText(params.input, signal);
    if (this.fallback && isUnauditedTrace(params.trace_id)) {
      if (!fallback) throw new ValidationError(`Trace ${params.trace_id} is an unaudited placeholder: tool loops need the gateway`);
      return fallback(new GatewayError('Trace is an unaudited placeholder'));
    }
    if (params.tools?.some((tool) => tool.type === 'mcp')) await this.requireFeature('mcp_tools', 'MCP tools');
    if (usesTools) await this.requireFeature('tool_calls', 'Tool calls');
    else await this.init(signal);
    return this.governed('execute', () => this.send<ExecutionResult>('POST', '/api/v1/executions', params, signal), fallback);
  }

  /** POST /api/v1/runs: a direct model run (no routing). Fail-open answers with the fallback provider's model. */
  async run(params: RunParams, signal?: AbortSignal): Promise<RunResult> {
    const fallback = this.unauditedText(params.input, signal);
    if (fallback && isUnauditedTrace(params.trace_id)) return fallback(new GatewayError('Trace is an unaudited placeholder'));
    await this.init(signal);
    return this.governed('run', () => this.send<RunResult>('POST', '/api/v1/runs', params, signal), fallback);
  }

  /**
   * GET /api/v1/executions/stream as an async iterator of chat.completion.chunk objects:
   * `for await (const chunk of client.stream({trace_id, input})) ...`. The request is sent when
   * iteration starts; HTTP errors are thrown from the loop.
   */
  stream(params: StreamParams, signal?: AbortSignal): ExecutionStream {
    const open = async (): Promise<OpenedStream> => {
      const provider = this.fallback;
      const viaProvider = async (error: GatewayError): Promise<OpenedStream> => ({ response: await provider!.stream(params.input, error, signal), unaudited: true });
      if (provider && isUnauditedTrace(params.trace_id)) return viaProvider(new GatewayError('Trace is an unaudited placeholder'));
      await this.requireFeature('streaming', 'Streaming');
      return this.governed(
        'stream',
        async () => ({ response: await this.transport.open('GET', '/api/v1/executions/stream', { query: { trace_id: params.trace_id, input: params.input }, signal, headers: { accept: 'text/event-stream' } }), unaudited: false }),
        provider ? viaProvider : undefined,
      );
    };
    return new ExecutionStream(open, signal);
  }

  /** POST /api/v1/checks: always 200, `allowed` false when blocked. Never fails open: a verdict cannot be invented. */
  async check(params: CheckParams, signal?: AbortSignal): Promise<CheckResult> {
    if (this.fallback && isUnauditedTrace(params.trace_id)) throw new ValidationError(`Trace ${params.trace_id} is an unaudited placeholder: safety checks need the gateway`);
    await this.init(signal);
    return this.send<CheckResult>('POST', '/api/v1/checks', params, signal);
  }

  /** POST /api/v1/logs. Fail-open: an unaudited receipt (`step_id` null); the log is not stored. */
  async log(params: LogParams, signal?: AbortSignal): Promise<LogReceipt> {
    const unaudited = async (): Promise<LogReceipt> => ({ step_id: null, trace_id: params.trace_id, type: 'log', parent_step_id: params.parent_step_id ?? null, created_at: new Date().toISOString(), unaudited: true });
    if (this.fallback && isUnauditedTrace(params.trace_id)) return unaudited();
    await this.init(signal);
    return this.governed('log', () => this.send<LogReceipt>('POST', '/api/v1/logs', params, signal), unaudited);
  }

  /** POST /api/v1/simulate (SDK mode): dry-run routing; `project_id` defaults to the key's project. */
  async simulate(params: SimulateParams, signal?: AbortSignal): Promise<SimulationResult> {
    await this.requireFeature('simulate', 'Simulation');
    const projectId = params.project_id ?? this.currentConfig?.project_id;
    if (projectId === undefined) throw new ValidationError('project_id is required (the SDK configuration could not be read)');
    return this.send<SimulationResult>('POST', '/api/v1/simulate', { ...params, project_id: projectId }, signal);
  }

  // ---- replay ---------------------------------------------------------------------------------

  /** POST /api/v1/replay: `accepted` with a queued job (202), or the cached completed result (200). */
  async replay(params: ReplayParams, signal?: AbortSignal): Promise<ReplayRequestResult> {
    await this.requireFeature('replay', 'Replay');
    if (params.force_model !== undefined && params.compare_models !== undefined) throw new ValidationError('force_model and compare_models are mutually exclusive');
    const response = await this.transport.json<ReplayJob>('POST', '/api/v1/replay', { body: params, signal });
    return response.status === 202 ? { accepted: true, job: response.body } : { accepted: false, job: response.body as CompletedReplay };
  }

  async getReplay(jobId: string, signal?: AbortSignal): Promise<ReplayJob> {
    await this.init(signal);
    return this.get<ReplayJob>(`/api/v1/replay/${segment(jobId)}`, undefined, signal);
  }

  /** Starts a replay and polls it every 1–2 s until it completes (the result) or fails (ReplayFailedError). */
  async replayAndWait(params: ReplayParams, options: WaitForReplayOptions = {}): Promise<CompletedReplay> {
    const started = await this.replay(params, options.signal);
    if (!started.accepted) return started.job;
    options.onStatus?.(started.job.status, started.job);
    const sleep = this.options.sleep;
    return waitForReplay(started.job.job_id, (jobId, signal) => this.getReplay(jobId, signal), options, sleep ? { now: Date.now, sleep } : undefined);
  }

  // ---- statistics -----------------------------------------------------------------------------

  /** GET /api/v1/stats for the key's project. `window` and `start_date`/`end_date` are exclusive. */
  async stats(params: StatsParams = {}, signal?: AbortSignal): Promise<Stats> {
    if (params.window !== undefined && (params.start_date !== undefined || params.end_date !== undefined)) throw new ValidationError('window and start_date/end_date are mutually exclusive');
    await this.init(signal);
    return this.get<Stats>('/api/v1/stats', { project_id: params.project_id, window: params.window, start_date: params.start_date, end_date: params.end_date }, signal);
  }
}
