/**
 * Screenshots of the console's main pages, on real data: starts the production-mode stack
 * (PostgreSQL, Redis and NATS must run; bundles built with `npx nx run-many -t bundle`), sets up
 * a project through the console like a person would, sends traffic with the key through the edge,
 * and writes PNGs to docs/screenshots/.
 *
 *   npx tsx apps/dashboard/scripts/screenshots.ts [output dir]
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventually } from '@gateway/testing';
import { ConsoleFlow, KeyCaller, launchChromium } from '../test/support/console-flow';
import { ROOT, startConsoleStack } from '../test/support/console-stack';

const OUT = resolve(process.argv[2] ?? join(ROOT, 'docs/screenshots'));

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

const QUESTIONS = [
  'What is the capital of France?',
  'Translate "good morning" into Spanish.',
  'How many days are there in a leap year?',
  'Give me a synonym for happy.',
  'What time zone is Tokyo in?',
];
const ANALYSES = [
  'Analyze the following quarterly report step by step, compare revenue growth across the three regions, identify the main risks for the next two quarters, and propose a prioritized plan with budget estimates for each initiative, explaining the trade-offs of each option in detail.',
  'Review this architecture proposal in depth: evaluate scalability, failure modes, data consistency across services, operational cost and security posture, then recommend changes with a migration sequence and the reasoning behind each step.',
];

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // Thresholds low enough for a few minutes of traffic to produce each insight type.
  const env = await startConsoleStack('screens', {
    insightsEnv: { INSIGHTS_MIN_COMPARISONS: '2', INSIGHTS_LATENCY_P99_MS: '200', INSIGHTS_LATENCY_MIN_SAMPLES: '3', INSIGHTS_INTENT_SHARE_PCT: '25', INSIGHTS_INTENT_MIN_SAMPLES: '3' },
  });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const flow = new ConsoleFlow(page, env.dashboardUrl);
    const shot = async (name: string, fullPage = true) => {
      await flow.settled();
      await page.screenshot({ path: join(OUT, `${name}.png`), fullPage });
      process.stdout.write(`wrote ${join(OUT, `${name}.png`)}\n`);
    };

    await page.goto(env.dashboardUrl);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByLabel('Email').fill(env.owner.email);
    await shot('login', false);

    await flow.login(env.owner.email, env.owner.password);
    const projectId = await flow.createProject('Support assistant', 'Customer support chat and agent tools');
    await flow.createProject('Internal analytics', 'Reporting and summaries');
    await page.getByLabel('Project', { exact: true }).selectOption(String(projectId));

    const baseUrl = `${env.mock.baseUrl}/v1`;
    await flow.addModel({ name: 'Mock mini', identifier: 'mock-mini', baseUrl, apiKey: 'sk-mini', inputCost: '0.00015', outputCost: '0.0006', infrastructure: 'mock-cloud' });
    await flow.addModel({ name: 'Mock large', identifier: 'mock-large', baseUrl, apiKey: 'sk-large', inputCost: '0.0025', outputCost: '0.01', infrastructure: 'mock-cloud', fallback: 'mock-mini' });
    await flow.addModel({ name: 'Mock private', identifier: 'mock-private', baseUrl, apiKey: 'sk-private', inputCost: '0.0002', outputCost: '0.0002', infrastructure: 'on-prem', isPublic: false });
    await shot('models');

    await flow.setRoutingTiers(projectId, { simple: 'mock-mini', complex: 'mock-large', secure: 'mock-private' }, { monthlyBudget: '500', riskThreshold: '0.7', blockedTerms: 'project zebra\ninternal codename', blockedTopics: 'weapons' });
    await shot('project-settings');

    await flow.createKey('Staging key', '2');
    const api = new KeyCaller(env.stack.edgeUrl, await flow.createKey('Production backend', '25'));
    const reports = new KeyCaller(env.stack.edgeUrl, await flow.createKey('Reports job'));
    const runaway = new KeyCaller(env.stack.edgeUrl, await flow.createKey('Runaway agent', '1', 'Internal analytics'));

    // Traffic: simple and complex questions, personal data (secure tier), a blocked term, a tool loop.
    await env.mock.addBehavior({ model: 'mock-large', latencyMs: 420 });
    await env.mock.addBehavior({ model: 'mock-mini', latencyMs: 90 });
    await env.mock.addBehavior({ model: 'mock-private', latencyMs: 220 });
    let showcase = '';
    for (let i = 0; i < 8; i++) {
      const trace = await api.ok<{ id: string }>('POST', '/api/v1/traces', { metadata: { customer: `c-${100 + i}`, channel: i % 2 ? 'email' : 'chat' }, revenue: 0.02 + i * 0.01 });
      await api.ok('POST', '/api/v1/executions', { trace_id: trace.id, input: QUESTIONS[i % QUESTIONS.length] });
      if (i % 3 === 0) await api.ok('POST', '/api/v1/executions', { trace_id: trace.id, input: ANALYSES[i % ANALYSES.length] });
      if (i === 2) await api.ok('POST', '/api/v1/executions', { trace_id: trace.id, input: 'My email is jane.doe@example.com, please update my shipping address.' });
      if (i === 4) {
        showcase = trace.id;
        await api.ok('POST', '/api/v1/checks', { trace_id: trace.id, input: 'Where is my order 1234?' });
        const pending = await api.ok<{ step_id: number; tool_calls: { id: string; name: string }[] }>('POST', '/api/v1/executions', { trace_id: trace.id, input: 'What is the weather in Paris today?', tools: [weatherTool] });
        await api.ok('POST', '/api/v1/executions', {
          trace_id: trace.id,
          parent_step_id: pending.step_id,
          tool_results: pending.tool_calls.map((call) => ({ tool_call_id: call.id, name: call.name, content: '{"temperature_c": 18, "sky": "cloudy"}' })),
        });
        await api.ok('POST', '/api/v1/executions', { trace_id: trace.id, input: 'Tell me about project zebra.' });
        await api.ok('POST', '/api/v1/logs', { trace_id: trace.id, output: { user_rating: 4, note: 'helpful' } });
      }
      await api.ok('PATCH', `/api/v1/traces/${trace.id}/complete`);
    }
    // Summaries sent straight to the large model, two of them replayed on the small one: the
    // evidence behind the migration, latency and intent insights.
    const summaries: string[] = [];
    for (const text of ['the quarterly numbers went up', 'the team shipped the release', 'the outage lasted an hour', 'the budget was approved', 'the hiring plan changed']) {
      const trace = await reports.ok<{ id: string }>('POST', '/api/v1/traces', { metadata: { customer: 'c-300', channel: 'reports' }, revenue: 0.03 });
      await reports.ok('POST', '/api/v1/runs', { trace_id: trace.id, model: 'mock-large', input: `Summarize this: ${text}.` });
      await reports.ok('PATCH', `/api/v1/traces/${trace.id}/complete`);
      summaries.push(trace.id);
    }
    for (const id of summaries.slice(0, 2)) {
      const job = await reports.ok<{ job_id: string; status: string }>('POST', '/api/v1/replay', { trace_id: id, force_model: 'mock-mini' }, [200, 202]);
      await eventually(async () => (await reports.ok<{ status: string }>('GET', `/api/v1/replay/${job.job_id}`)).status === 'completed', 60_000, 1_500);
    }
    await api.ok('POST', '/api/v1/traces', { metadata: { customer: 'c-200', channel: 'chat' } });
    // An agent stuck in a loop: more than 50 requests in 10 s pause its key (loop_detected).
    for (let i = 0; i < 60; i++) {
      if ((await runaway.call('POST', '/api/v1/traces', { metadata: { attempt: i } })).status === 429) break;
    }

    await flow.open('#/keys', 'API keys');
    await shot('keys');
    // The once-only dialog, for the record (a throwaway key of this local stack).
    await page.getByLabel('Key name').fill('CI pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    await shot('key-created', false);
    await page.getByRole('button', { name: 'I have stored the key' }).click();

    await flow.open('#/projects', 'Projects');
    await shot('projects');

    await flow.open('#/traces', /^Traces/);
    await shot('traces');

    await flow.open(`#/traces/${showcase}`, `Trace ${showcase}`);
    await page.locator('li[data-step-type="tool_call"] summary').first().click();
    await shot('trace');

    // Replay of the showcase trace on two models, side by side.
    await page.getByRole('radio', { name: 'Compare several models' }).check();
    await page.getByRole('checkbox', { name: 'mock-mini' }).check();
    await page.getByRole('checkbox', { name: 'mock-large' }).check();
    await page.getByRole('button', { name: 'Replay trace' }).click();
    await page.getByRole('table', { name: 'Replay comparison' }).waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Replay with overrides' }).scrollIntoViewIfNeeded();
    await shot('trace-replay');

    await eventually(async () => {
      const stats = await api.ok<{ security: { total_requests: number } }>('GET', '/api/v1/stats?window=24');
      return stats.security.total_requests >= 8;
    }, 60_000, 500);
    await flow.open('#/stats', /^Statistics/);
    await page.locator('.tile-value').first().waitFor();
    await shot('stats');

    await flow.open('#/insights', /^Insights/);
    await page.getByRole('button', { name: 'Refresh insights' }).click();
    await page.getByRole('status').filter({ hasText: 'Insights refreshed' }).waitFor();
    // Try the migration insight's suggestion on a trace: the comparison beside the original.
    const tryIt = page.getByRole('button', { name: /^Replay with / }).first();
    if ((await tryIt.count()) > 0) {
      await tryIt.click();
      await page.getByRole('button', { name: 'Replay trace' }).click();
      await page.getByRole('table', { name: 'Replay comparison' }).waitFor({ timeout: 60_000 });
    }
    await shot('insights');

    await flow.open('#/members', 'Members');
    await page.getByLabel('Email').fill('new.colleague@example.com');
    await page.getByRole('button', { name: 'Send invite' }).click();
    await page.getByLabel('Invite link').waitFor();
    await flow.open('#/audit', 'Audit events');
    await shot('audit');
  } finally {
    await browser.close();
    await env.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
