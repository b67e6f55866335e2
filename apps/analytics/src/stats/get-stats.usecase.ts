import type { analytics } from '@gateway/proto';
import { buildStats, type StatsSettings } from './build-stats';
import type { StatsRepository } from './stats.repository';
import { resolvePeriod, type PeriodQuery } from './stats-period';

/** GET /stats: the statistics object of one project and period, from the hourly rollups. */
export class GetStatsUseCase {
  constructor(
    private readonly repository: StatsRepository,
    private readonly settings: StatsSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(projectId: number, query: PeriodQuery): Promise<analytics.Stats> {
    const period = resolvePeriod(query, this.now());
    const rollups = await this.repository.read(projectId, period.start, period.endHour, this.settings.driftSampleThreshold);
    return buildStats(period, rollups, this.settings);
  }
}
