// Generated contracts (ts-proto) re-exported by package, plus the event subjects.
export * as common from './generated/gateway/common/v1/common';
export * as controlplane from './generated/gateway/controlplane/v1/controlplane';
export * as ledger from './generated/gateway/ledger/v1/ledger';
export * as guardrail from './generated/gateway/guardrail/v1/guardrail';
export * as router from './generated/gateway/router/v1/router';
export * as providerproxy from './generated/gateway/providerproxy/v1/providerproxy';
export * as analytics from './generated/gateway/analytics/v1/analytics';
export * as insights from './generated/gateway/insights/v1/insights';
export * as replay from './generated/gateway/replay/v1/replay';
export * as events from './generated/gateway/events/v1/events';
export { DESCRIPTOR_SET_BASE64 } from './generated/descriptor-set';
export * from './subjects';
export * from './grading-rules';
