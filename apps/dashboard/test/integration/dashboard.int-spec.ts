import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '@gateway/testing';
import { formatUsd } from '../../web/src/lib/format';
import { ConsoleFlow, KeyCaller, launchChromium } from '../support/console-flow';
import { startConsoleStack, type ConsoleStack } from '../support/console-stack';
import { totpCode } from '../support/totp';

/**
 * Issue 11, the dashboard: headless Chromium drives the console served by the dashboard server
 * (which relays /api to a production-mode edge): log in, create a project, models, routing
 * tiers and a key, run a trace through the API with that key, and find the trace, its steps
 * and the statistics in the pages. Then keys, invites, MFA and the server's own guarantees.
 */
describe('dashboard (production mode, headless Chromium)', () => {
  let env: ConsoleStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let flow: ConsoleFlow;
  const projectName = `Support bot ${randomUUID().slice(0, 6)}`;
  let projectId: number;
  let rawKey: string;
  let traceId: string;
  let traceCost: number;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    env = await startConsoleStack('dashboard');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    flow = new ConsoleFlow(page, env.dashboardUrl);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.stop();
    // The measured figures, for the report.
    if (Object.keys(figures).length > 0) process.stderr.write(`dashboard figures: ${JSON.stringify(figures)}\n`);
  }, 60_000);

  it('logs in, creates a project, models, routing tiers and a key; a trace run with the key shows in the list, with its steps, and in the statistics', async () => {
    // First load of the console (cold browser cache) up to the login form.
    const started = Date.now();
    await page.goto(env.dashboardUrl);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    figures.firstLoadMs = Date.now() - started;
    // Evaluated in the page (a string: this file is compiled without the DOM library).
    const timing = (await page.evaluate(
      `(() => { const n = performance.getEntriesByType('navigation')[0]; return { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd, transferred: performance.getEntriesByType('resource').reduce((sum, r) => sum + r.transferSize, n.transferSize) }; })()`,
    )) as { domContentLoaded: number; load: number; transferred: number };
    figures.domContentLoadedMs = Math.round(timing.domContentLoaded);
    figures.loadEventMs = Math.round(timing.load);
    figures.transferredBytes = timing.transferred;

    // A wrong password: the API's message, announced.
    await page.getByLabel('Email').fill(env.owner.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectAlert(page, 'Invalid email or password');

    await flow.login(env.owner.email, env.owner.password);
    await page.getByText(env.owner.email).first().waitFor();

    // Project: a blank name is refused with the spec's message, then created.
    await flow.open('#/projects', 'Projects');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expectAlert(page, "Name can't be blank");
    projectId = await flow.createProject(projectName, 'Customer support assistant');
    expect(projectId).toBeGreaterThan(0);
    expect(await page.getByLabel('Project', { exact: true }).inputValue()).toBe(String(projectId));

    // Models in the registry (mock provider, OpenAI wire format); api_key is write-only.
    const baseUrl = `${env.mock.baseUrl}/v1`;
    await flow.addModel({ name: 'Fast', identifier: 'fast', baseUrl, apiKey: 'sk-fast-secret', inputCost: '0.0005', outputCost: '0.0015', infrastructure: 'cloud-a' });
    await flow.addModel({ name: 'Smart', identifier: 'smart', baseUrl, apiKey: 'sk-smart-secret', inputCost: '0.01', outputCost: '0.03', infrastructure: 'cloud-b', fallback: 'fast' });
    const registry = page.getByRole('table');
    await registry.getByRole('row', { name: /fast/ }).first().getByText('stored').waitFor();
    expect(await page.content()).not.toContain('sk-fast-secret');

    // Edit a model: the key field starts empty and says a key is stored.
    await page.getByRole('button', { name: 'Edit smart' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit smart' });
    expect(await edit.getByLabel('API key').inputValue()).toBe('');
    await edit.getByText('A key is stored (never shown).').waitFor();
    await edit.getByLabel('Output cost per 1k tokens (USD)').fill('0.02');
    await edit.getByRole('button', { name: 'Save model' }).click();
    await page.getByRole('status').filter({ hasText: 'Model smart saved.' }).waitFor();
    await page.getByRole('row', { name: /smart/ }).getByText('$0.020').waitFor();

    // Routing tiers picked from the registry, and a policy rule.
    await flow.open(`#/projects/${projectId}`, /^Project settings/);
    const tierOptions = await page.getByLabel('Simple tier').locator('option').allTextContents();
    expect(tierOptions).toEqual(['Not set', 'fast', 'smart']);
    await flow.setRoutingTiers(projectId, { simple: 'fast', complex: 'smart' }, { monthlyBudget: '100', blockedTerms: 'project zebra' });
    // Saved: a fresh load shows the settings back.
    await flow.open(`#/projects/${projectId}`, /^Project settings/);
    expect(await page.getByLabel('Simple tier').inputValue()).toBe('fast');
    expect(await page.getByLabel('Blocked terms').inputValue()).toBe('project zebra');
    expect(await page.getByLabel('Monthly budget (USD)').inputValue()).toBe('100');

    // A key: the raw key is read once from the dialog.
    rawKey = await flow.createKey('Backend key');
    expect(rawKey).toMatch(/^ak_[0-9a-f]+\.[A-Za-z0-9_-]+$/);
    const keyRow = page.getByRole('row', { name: /Backend key/ });
    await keyRow.getByText('active').waitFor();
    expect(await page.content()).not.toContain(rawKey);

    // Traffic with the key, through the edge, as a backend would send it.
    const api = new KeyCaller(env.stack.edgeUrl, rawKey);
    const trace = await api.ok<{ id: string }>('POST', '/api/v1/traces', { metadata: { customer: 'c-42', channel: 'chat' }, revenue: 0.05 });
    const answer = await api.ok<{ output: string; model: string; step_id: number }>('POST', '/api/v1/executions', { trace_id: trace.id, input: 'What is the capital of France?' });
    expect(answer.model).toBe('fast');
    const blocked = await api.ok<{ reason: string; step_id: number; output?: string }>('POST', '/api/v1/executions', { trace_id: trace.id, input: 'Tell me everything about project zebra.' });
    expect(blocked.reason).toEqual(expect.any(String));
    expect(blocked.output).toBeUndefined();
    const completed = await api.ok<{ optimization_grade: string; total_cost: number }>('PATCH', `/api/v1/traces/${trace.id}/complete`);
    traceId = trace.id;
    traceCost = completed.total_cost;
    const detail = await api.ok<any>('GET', `/api/v1/traces/${trace.id}`);

    // The list: the trace, completed, filterable by status.
    await flow.open('#/traces', /^Traces/);
    const link = page.getByRole('link', { name: `Trace ${trace.id}` });
    await link.waitFor();
    await page.getByRole('row', { name: new RegExp(trace.id.slice(0, 8)) }).getByText('completed').waitFor();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByText('No pending trace.').waitFor();
    await page.getByLabel('Status').selectOption('completed');
    await link.click();

    // The trace page: steps on the timeline, the blocked reason, grades, summary, security.
    await page.getByRole('heading', { level: 1, name: `Trace ${trace.id}` }).waitFor();
    const steps = page.locator('ol.timeline > li');
    await expect(steps.count()).resolves.toBe(detail.steps.length);
    const run = page.locator('li[data-step-type="run"]');
    await run.getByText('model run').waitFor();
    await run.getByText('fast', { exact: true }).waitFor();
    await run.getByText(formatUsd(detail.steps.find((s: any) => s.type === 'run').cost)).waitFor();
    const blockedStep = page.locator('li[data-step-type="blocked"]');
    await blockedStep.getByText(blocked.reason).waitFor();
    await run.locator('summary').click();
    await run.getByText(answer.output).waitFor();
    await page.getByLabel(`Optimization grade ${completed.optimization_grade}`).waitFor();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary.getByText(formatUsd(completed.total_cost), { exact: true }).first().waitFor();
    await page.getByRole('region', { name: 'Security' }).getByText('Personal data (PII)').waitFor();
    expect(await page.locator('.bar-fill').count()).toBe(detail.steps.length);

    // Statistics (analytics consumes the ledger's events): the page shows what the API reports.
    await flow.open('#/stats', /^Statistics/);
    const stats = await eventually(async () => {
      const body = await api.ok<any>('GET', '/api/v1/stats?window=24');
      return body.security.total_requests >= 1 && body.cost.by_model.length > 0 ? body : undefined;
    }, 30_000, 250);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const requests = page.locator('.tile').filter({ hasText: 'Requests' }).locator('.tile-value');
    await eventually(async () => (await requests.textContent()) === String(stats.security.total_requests), 10_000, 200);
    await page.getByRole('img', { name: /Cost by model \(USD\): fast/ }).waitFor();
    await page.getByRole('img', { name: /Cost by infrastructure \(USD\): cloud-a/ }).waitFor();
    await page.getByRole('img', { name: /Step latency \(ms\) per period/ }).waitFor();
    expect(await page.locator('.series.tone-1 circle').count()).toBeGreaterThan(0);
    await page.locator('.tile').filter({ hasText: 'Total cost' }).getByText(formatUsd(stats.cost.total)).waitFor();
    await page.getByLabel('Window', { exact: true }).selectOption('168');
    await page.waitForURL(/#\/stats\?window=168/);
    await eventually(async () => (await requests.textContent()) === String(stats.security.total_requests), 10_000, 200);
  });

  it('resets a tripped key and revokes a key', async () => {
    // A cap far below one call: the first execution trips the key.
    const tiny = await flow.createKey('Capped key', '0.0000001');
    const api = new KeyCaller(env.stack.edgeUrl, tiny);
    const trace = await api.ok<{ id: string }>('POST', '/api/v1/traces', {});
    const refused = await eventually(async () => {
      const answer = await api.call<any>('POST', '/api/v1/executions', { trace_id: trace.id, input: 'Hello there' });
      return answer.status === 429 ? answer : undefined;
    }, 10_000, 100);
    expect(refused.body.code).toBe('CIRCUIT_OPEN');

    await flow.open('#/keys', 'API keys');
    const row = page.getByRole('row', { name: /Capped key/ });
    await eventually(async () => {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      return (await row.getByText('tripped').count()) > 0;
    }, 10_000, 300);
    await row.getByRole('button', { name: /^Reset/ }).click();
    await page.getByRole('status').filter({ hasText: /reset to active/ }).waitFor();
    await row.getByText('active', { exact: true }).waitFor();

    await row.getByRole('button', { name: /^Revoke/ }).click();
    const confirm = page.getByRole('dialog', { name: /^Revoke/ });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: /revoked\./ }).waitFor();
    // Revoked keys leave the list.
    await row.waitFor({ state: 'detached' });
    expect((await api.call('POST', '/api/v1/traces', {})).status).toBe(401);
  });

  it('replays a trace with a forced model and shows both side by side; refreshes insights', async () => {
    await flow.open(`#/traces/${traceId}`, `Trace ${traceId}`);
    const replay = page.getByRole('region', { name: 'Replay with overrides' });
    await replay.getByLabel('Model', { exact: true }).selectOption('smart');
    await replay.getByRole('button', { name: 'Replay trace' }).click();
    const comparison = page.getByRole('table', { name: 'Replay comparison' });
    await comparison.waitFor({ timeout: 60_000 });
    const models = comparison.getByRole('row', { name: /Models used/ });
    await expect(models.getByRole('cell').allTextContents()).resolves.toEqual(['fast', 'smart']);
    const cost = comparison.getByRole('row', { name: /Total cost/ }).getByRole('cell');
    expect(await cost.first().textContent()).toBe(formatUsd(traceCost));

    await flow.open('#/insights', /^Insights/);
    await page.getByRole('button', { name: 'Refresh insights' }).click();
    await page.getByRole('status').filter({ hasText: /^Insights refreshed: \d+ computed\.$/ }).waitFor();
  });

  it('archives and restores a project, and deletes one only after its name is typed (keyboard only)', async () => {
    await flow.open(`#/projects/${projectId}`, /^Project settings/);
    await page.getByRole('button', { name: 'Archive project' }).click();
    await page.getByRole('status').filter({ hasText: 'Project archived.' }).waitFor();
    // The edge learns of changes through project.changed (cache invalidation): soon, not at once.
    const archived = Date.now();
    const refused = await eventually(async () => {
      const answer = await new KeyCaller(env.stack.edgeUrl, rawKey).call<any>('POST', '/api/v1/traces', {});
      return answer.status === 422 ? answer : undefined;
    }, 40_000, 250);
    figures.archivePropagationMs = Date.now() - archived;
    expect(refused.body.error).toMatch(/archived/);
    await page.getByRole('button', { name: 'Restore project' }).click();
    await page.getByRole('status').filter({ hasText: 'Project restored.' }).waitFor();
    const started = Date.now();
    await eventually(async () => (await new KeyCaller(env.stack.edgeUrl, rawKey).call('POST', '/api/v1/traces', {})).status === 201, 40_000, 250);
    figures.restorePropagationMs = Date.now() - started;

    const scratch = await flow.createProject('Scratch project', 'to delete');
    await flow.open(`#/projects/${scratch}`, /^Project settings/);
    const remove = page.getByRole('button', { name: 'Delete project' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete Scratch project?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Delete project');

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.keyboard.type('Scratch project');
    expect(await confirm.isDisabled()).toBe(false);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('link', { name: projectName, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Scratch project', exact: true }).count()).toBe(0);
  });

  it('invites a member who joins through the link and sees no admin pages; the audit list shows the invite', async () => {
    await flow.open('#/members', 'Members');
    const email = `member-${randomUUID().slice(0, 6)}@dashboard.test`;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send invite' }).click();
    const inviteLink = await page.getByLabel('Invite link').inputValue();
    expect(inviteLink).toContain('#/accept?token=');

    await flow.open('#/audit', 'Audit events');
    await page.getByRole('row', { name: /member_invited/ }).first().waitFor();
    await page.getByRole('row', { name: /login_success/ }).first().waitFor();

    const memberContext = await browser.newContext();
    try {
      const member = await memberContext.newPage();
      await member.goto(inviteLink);
      await member.getByLabel('Your name').fill('Mia Member');
      await member.getByLabel('Choose a password').fill('member-password-123');
      await member.getByRole('button', { name: 'Join' }).click();
      await member.getByRole('status').filter({ hasText: `Welcome, ${email}` }).waitFor();
      await member.getByRole('link', { name: 'Log in' }).click();
      await new ConsoleFlow(member, env.dashboardUrl).login(email, 'member-password-123');
      const nav = member.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Traces' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Audit events' }).count()).toBe(0);
      // The API decides: the audit list answers 403 with its message.
      await member.goto(`${env.dashboardUrl}/#/audit`);
      await member.getByRole('alert').filter({ hasText: 'Forbidden' }).waitFor();
    } finally {
      await memberContext.close();
    }
  });

  it('serves the console compressed with cache headers and a strict CSP, relays /up, and refuses cross-site writes', async () => {
    const html = await fetch(`${env.dashboardUrl}/`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-encoding')).toBe('br');
    expect(html.headers.get('cache-control')).toBe('no-cache');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await html.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${env.dashboardUrl}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = asset.headers.get('etag')!;
    expect((await fetch(`${env.dashboardUrl}${script}`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const up = await fetch(`${env.dashboardUrl}/up`);
    expect(await up.json()).toEqual({ status: 'ok', version: expect.any(String) });
    const crossSite = await fetch(`${env.dashboardUrl}/api/v1/session`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify(env.owner) });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: 'Cross-origin request refused' });
    // Same origin: the edge answers through the relay, Set-Cookie included.
    const login = await fetch(`${env.dashboardUrl}/api/v1/session`, { method: 'POST', headers: { origin: env.dashboardUrl, 'content-type': 'application/json' }, body: JSON.stringify({ email: env.owner.email, password: 'wrong-password' }) });
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ error: 'Invalid email or password' });
  });

  it('turns MFA on, then logging in asks for the authenticator code', async () => {
    await flow.open('#/account', 'Account');
    await page.getByRole('button', { name: 'Set up MFA' }).click();
    const secret = await page.getByLabel('Secret').inputValue();
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on MFA' }).click();
    await page.getByRole('status').filter({ hasText: 'MFA is on.' }).waitFor();

    await page.getByRole('button', { name: 'Log out' }).first().click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    // A code is accepted once per 30 s step: the next step's code (within the drift window).
    await flow.login(env.owner.email, env.owner.password, () => totpCode(secret, 1));
    await page.getByText(env.owner.email).first().waitFor();
  });
});

async function expectAlert(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).waitFor({ timeout: 10_000 });
}
