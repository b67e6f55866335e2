import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, driven headless by playwright-core (no bundled browser download). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'], headless: true });
}

export interface ModelInput {
  name: string;
  identifier: string;
  baseUrl: string;
  apiKey: string;
  inputCost: string;
  outputCost: string;
  infrastructure: string;
  isPublic?: boolean;
  fallback?: string;
}

/** What a person does in the console, step by step, through labels and roles only. */
export class ConsoleFlow {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  /** Opens a console page by its fragment (reloading it when already there) and waits for its title and data. */
  async open(fragment: string, title: string | RegExp): Promise<void> {
    const target = `${this.baseUrl}/${fragment}`;
    if (this.page.url() === target) await this.page.reload();
    else await this.page.goto(target);
    await this.page.getByRole('heading', { level: 1, name: title }).waitFor();
    await this.settled();
  }

  /** No page section is still loading. */
  async settled(): Promise<void> {
    // A locator, not a page function: the console's CSP refuses string evaluation.
    await this.page.locator('p.loading').first().waitFor({ state: 'hidden' });
  }

  async login(email: string, password: string, otp?: () => string): Promise<void> {
    await this.page.goto(this.baseUrl);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Log in' }).click();
    if (otp) {
      const code = this.page.getByLabel('Authentication code');
      await code.waitFor();
      await code.fill(otp());
      await this.page.getByRole('button', { name: 'Verify and log in' }).click();
    }
    await this.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  }

  async createProject(name: string, description: string): Promise<number> {
    await this.open('#/projects', 'Projects');
    await this.page.getByLabel('Project name').fill(name);
    await this.page.getByLabel('Description').fill(description);
    await this.page.getByRole('button', { name: 'Create project' }).click();
    await this.page.getByRole('status').filter({ hasText: `Project “${name}” created and selected.` }).waitFor();
    const link = this.page.getByRole('link', { name, exact: true });
    const href = await link.getAttribute('href');
    return Number(/#\/projects\/(\d+)/.exec(href ?? '')?.[1]);
  }

  async addModel(model: ModelInput): Promise<void> {
    await this.open('#/models', /^Model registry/);
    await this.page.getByRole('button', { name: 'Add model' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add a model' });
    await dialog.getByLabel('Name', { exact: true }).fill(model.name);
    await dialog.getByLabel('Identifier').fill(model.identifier);
    await dialog.getByLabel('Provider').selectOption('openai');
    await dialog.getByLabel('Base URL').fill(model.baseUrl);
    await dialog.getByLabel('API key').fill(model.apiKey);
    await dialog.getByLabel('Input cost per 1k tokens (USD)').fill(model.inputCost);
    await dialog.getByLabel('Output cost per 1k tokens (USD)').fill(model.outputCost);
    await dialog.getByLabel('Infrastructure label').fill(model.infrastructure);
    if (model.fallback) await dialog.getByLabel('Fallback model').selectOption(model.fallback);
    if (model.isPublic === false) await dialog.getByLabel('Public model').uncheck();
    await dialog.getByRole('button', { name: 'Add model' }).click();
    await this.page.getByRole('status').filter({ hasText: `Model ${model.identifier} added.` }).waitFor();
  }

  async setRoutingTiers(projectId: number, tiers: { simple?: string; complex?: string; secure?: string }, extra: { monthlyBudget?: string; riskThreshold?: string; blockedTerms?: string; blockedTopics?: string } = {}): Promise<void> {
    await this.open(`#/projects/${projectId}`, /^Project settings/);
    for (const [tier, identifier] of Object.entries(tiers)) {
      if (identifier) await this.page.getByLabel(`${tier[0].toUpperCase()}${tier.slice(1)} tier`).selectOption(identifier);
    }
    if (extra.monthlyBudget !== undefined) await this.page.getByLabel('Monthly budget (USD)').fill(extra.monthlyBudget);
    if (extra.riskThreshold !== undefined) await this.page.getByLabel('Risk threshold').fill(extra.riskThreshold);
    if (extra.blockedTerms !== undefined) await this.page.getByLabel('Blocked terms').fill(extra.blockedTerms);
    if (extra.blockedTopics !== undefined) await this.page.getByLabel('Blocked topics').fill(extra.blockedTopics);
    await this.page.getByRole('button', { name: 'Save settings' }).click();
    await this.page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
  }

  /** Creates a key in the console and reads the raw key from the once-only dialog. */
  async createKey(name: string, hourlyLimit?: string, projectName?: string): Promise<string> {
    await this.open('#/keys', 'API keys');
    await this.page.getByLabel('Key name').fill(name);
    if (projectName) await this.page.getByLabel('Project', { exact: true }).last().selectOption({ label: projectName });
    if (hourlyLimit !== undefined) await this.page.getByLabel('Hourly limit (USD)').fill(hourlyLimit);
    await this.page.getByRole('button', { name: 'Create key' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Your new API key' });
    const rawKey = await dialog.getByLabel(/^API key for/).inputValue();
    await dialog.getByRole('button', { name: 'I have stored the key' }).click();
    await dialog.waitFor({ state: 'detached' });
    return rawKey;
  }
}

/** A key's calls through the edge, as a server would make them. */
export class KeyCaller {
  constructor(
    private readonly edgeUrl: string,
    private readonly rawKey: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.edgeUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.rawKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async ok<T = any>(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (!expected.includes(answer.status)) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }
}
