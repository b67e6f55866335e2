import { isDomainError } from '@gateway/errors';
import type { ProjectPolicyCache } from '@gateway/grpc';
import { EMPTY_GRADING_POLICY, gradingPolicyFrom, type GradingPolicy, type GradingPolicySource } from './grading-policy';

/**
 * Grading policy from control-plane's GetProjectPolicy, through the cache that `project.changed`
 * invalidates. A project control-plane does not know grades against an empty registry (waste A);
 * control-plane being unreachable is an error (UNAVAILABLE), so a grade is never silently wrong.
 */
export class ControlPlaneGradingPolicySource implements GradingPolicySource {
  constructor(private readonly policies: Pick<ProjectPolicyCache, 'get'>) {}

  async forProject(projectId: number): Promise<GradingPolicy> {
    try {
      const policy = await this.policies.get(projectId);
      return gradingPolicyFrom(policy.project?.settings, policy.models.map((model) => ({ ...model, additionalConfig: model.additionalConfig ?? {} })));
    } catch (error) {
      if (isDomainError(error) && error.code === 'NOT_FOUND') return EMPTY_GRADING_POLICY;
      throw error;
    }
  }
}
