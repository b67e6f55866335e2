import { DomainError, isDomainError } from '@gateway/errors';
import { assertCheckableInput, checkText, parseDirection, validatePolicy, type CheckResult, type GuardrailPolicy } from '../detection';
import { policyFromProjectSettings } from './project-policy.mapper';

/** A project's stored settings (control-plane's GetProjectPolicy, cached and invalidated by project.changed). */
export type ProjectSettingsSource = (projectId: number) => Promise<Record<string, unknown> | undefined>;

/** Who asks: another gateway service, or an internal team's API key bound to one project. */
export type CheckCaller = { kind: 'service' } | { kind: 'api_key'; projectId: number };

export interface CheckCommand {
  text: string;
  /** input | output; empty means input. */
  direction: string;
  /** Sent with the request; when present it is the whole policy of this check. */
  policy: Partial<GuardrailPolicy> | undefined;
  /** 0 when not sent. */
  projectId: number;
  caller: CheckCaller;
}

/**
 * A safety check with its policy resolved:
 *   1. an explicit request policy wins (the guardrail stays usable statelessly);
 *   2. else the project's `settings.policy_rules` and `settings.risk_threshold`;
 *   3. else the defaults (no project rules, threshold 0.7).
 * Cheap validation (size, direction, explicit policy) happens before the project's policy is
 * fetched. An API key may only name its own project (NOT_FOUND otherwise, as for any resource
 * of another project) and defaults to it.
 */
export class RunCheckUseCase {
  constructor(private readonly projectSettings: ProjectSettingsSource) {}

  async execute(command: CheckCommand): Promise<CheckResult> {
    assertCheckableInput(command.text);
    const direction = parseDirection(command.direction);
    if (!Number.isSafeInteger(command.projectId) || command.projectId < 0) throw new DomainError('VALIDATION_FAILED', 'project_id must be a positive integer when sent', { errors: ['project_id is invalid'] });
    if (command.policy !== undefined) validatePolicy(command.policy);

    const projectId = this.projectFor(command);
    const policy = command.policy ?? (projectId > 0 ? await this.projectPolicy(projectId) : undefined);
    return checkText(command.text, policy, { direction });
  }

  private projectFor(command: CheckCommand): number {
    if (command.caller.kind !== 'api_key') return command.projectId;
    if (command.projectId !== 0 && command.projectId !== command.caller.projectId) throw new DomainError('NOT_FOUND', 'Project not found');
    return command.caller.projectId;
  }

  private async projectPolicy(projectId: number): Promise<Partial<GuardrailPolicy>> {
    const policy = policyFromProjectSettings(projectId, await this.projectSettings(projectId));
    try {
      validatePolicy(policy);
    } catch (error) {
      // The stored policy is the project's, not the caller's: say so. Failing the check keeps
      // the guardrail closed rather than running without a rule the project asked for.
      if (isDomainError(error) && error.code === 'VALIDATION_FAILED') {
        throw new DomainError('VALIDATION_FAILED', `Project ${projectId} settings.policy_rules: ${error.message}`, { errors: error.errors });
      }
      throw error;
    }
    return policy;
  }
}
