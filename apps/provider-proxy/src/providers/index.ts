/**
 * Provider adapters domain: the only entry point the transport layer imports.
 * Provider choices (decided per provider, see each adapter):
 *   MCP tools pass natively to anthropic (MCP connector) and openai (Responses API `mcp` tool);
 *   internal, azure, gemini and bedrock refuse them with VALIDATION_FAILED naming the provider.
 */
export type {
  ChatMessage,
  CompletionRequest,
  CompletionResult,
  FunctionToolDefinition,
  McpToolDefinition,
  ModelTarget,
  ProviderGateway,
  ProviderGatewayLogger,
  ProviderGatewayOptions,
  ProviderName,
  StreamEvent,
  ToolCall,
  ToolDefinition,
  Usage,
} from './provider.types';
export { PROVIDER_NAMES } from './provider.types';
export { createProviderGateway } from './provider-gateway.service';
export { costUsd } from './usage/cost.calculator';
