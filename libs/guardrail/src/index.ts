/**
 * The guardrail's detection engine and check use case: pure domain code with no I/O. The
 * guardrail service serves it over gRPC (for internal teams and other services); edge runs it
 * in-process on the execution path, where a network hop would cost more than the scan itself.
 */
export * from './detection';
export { RunCheckUseCase, type CheckCaller, type CheckCommand, type ProjectSettingsSource } from './checks/run-check.usecase';
export { policyFromProjectSettings } from './checks/project-policy.mapper';
export { fromProtoPolicy, toCheckResponse } from './checks/check-response.mapper';
export { guardrailDecisionCounter, type CheckDecision, type CheckObserver } from './checks/check-metrics';
