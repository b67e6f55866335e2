import { createDecipheriv, createHmac, randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { eventually, ProductionStack, TestHttpClient, type JsonResponse } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@cp-identity.test', password: 'identity-password-123' };
const AGENT = 'cp-identity-it/1.0';

// --- test-side TOTP (RFC 6238, SHA1, 6 digits, 30 s) and the mailer's view of a notification ---

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, '')) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function totp(secret: string, step = Math.floor(Date.now() / 30_000)): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1] & 15;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const currentStep = () => Math.floor(Date.now() / 30_000);

/** Decrypts a notification payload as a mailer holding GATEWAY_ENCRYPTION_KEYS would. */
function openNotification(encryptionKeys: string, keyId: string, ciphertext: string): Record<string, string> {
  const entry = encryptionKeys.split(',').find((part) => part.startsWith(`${keyId}:`))!;
  const key = Buffer.from(entry.slice(keyId.length + 1), 'base64');
  const raw = Buffer.from(ciphertext, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
}

/** A documentation-range address per client, fresh per run, so throttling state never leaks between tests or runs. */
const freshIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 254)}`;
/** The session token a login answered in its Set-Cookie header. */
const sessionCookie = (login: JsonResponse) => decodeURIComponent(login.headers.get('set-cookie')!.split(';')[0].split('=')[1]);
const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@cp-identity.test`;

describe('control-plane identity through edge: sessions, MFA, invites, roles, throttling (production mode)', () => {
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane'],
    databasePrefix: 'gw_it_cp_identity',
    extraEnv: { 'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password, CONTROL_PLANE_SPEND_DURABLE: 'control-plane-it-identity' } },
  });
  let owner: TestHttpClient;
  let db: pg.Client;
  const client = (ip = freshIp()) => new TestHttpClient(stack.edgeUrl, { 'x-forwarded-for': ip, 'user-agent': AGENT });

  beforeAll(async () => {
    await stack.startAll();
    db = new pg.Client({ connectionString: stack.apps.get('control-plane')!.env.DATABASE_URL });
    await db.connect();
    owner = client('127.0.0.1');
    expect((await owner.post('/api/v1/session', OWNER)).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await stack.stopAll();
  }, 60_000);

  /** The newest audit event of the owner's organization matching `event` and the metadata subset. */
  async function audited(event: string, metadata: Record<string, unknown> = {}): Promise<any> {
    return eventually(async () => {
      const list = await owner.get('/api/v1/audit-events');
      expect(list.status).toBe(200);
      return list.body.find((item: any) => item.event === event && Object.entries(metadata).every(([k, v]) => item.metadata[k] === v));
    }, 5_000);
  }

  /** Invites `role` as the owner and accepts; answers the member's signed-in client. */
  async function member(role: 'admin' | 'member', password = 'member-password-123'): Promise<{ http: TestHttpClient; address: string; userId: string; password: string }> {
    const address = email(role);
    const invite = await owner.post('/api/v1/members', { email: address, role });
    expect(invite.status).toBe(201);
    const accepted = await client().post('/api/v1/members/accept', { token: invite.body.invite_token, password, name: `A ${role}` });
    expect(accepted.status).toBe(201);
    const http = client();
    expect((await http.post('/api/v1/session', { email: address, password })).status).toBe(201);
    return { http, address, userId: accepted.body.user.id, password };
  }

  describe('sessions', () => {
    it('logs in with an HttpOnly SameSite cookie, answers the user, and audits login_success with ip and user agent', async () => {
      const http = client('203.0.113.10');
      const login = await http.post('/api/v1/session', OWNER);
      expect(login.status).toBe(201);
      expect(login.body).toEqual({ user: expect.objectContaining({ email: OWNER.email, role: 'owner', organization_id: expect.any(Number) }), expires_at: expect.any(String) });
      const cookie = login.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^gw_session=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
      const me = await http.get('/api/v1/session');
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe(OWNER.email);
      const event = await audited('login_success', { user_id: login.body.user.id });
      expect(event).toMatchObject({ id: expect.any(Number), ip: expect.any(String), user_agent: expect.any(String), occurred_at: expect.any(String) });
      const fromThisLogin = (await owner.get('/api/v1/audit-events')).body.find((e: any) => e.event === 'login_success' && e.ip === '203.0.113.10');
      expect(fromThisLogin).toMatchObject({ user_agent: AGENT, metadata: { user_id: login.body.user.id } });
    });

    it('refuses a wrong password with 401 and audits login_failed', async () => {
      const ip = freshIp();
      const wrong = await client(ip).post('/api/v1/session', { email: OWNER.email, password: 'not-the-password' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: 'Invalid email or password' });
      const unknown = await client(ip).post('/api/v1/session', { email: email('nobody'), password: 'whatever-123' });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ error: 'Invalid email or password' });
      const event = (await owner.get('/api/v1/audit-events')).body.find((e: any) => e.event === 'login_failed' && e.ip === ip);
      expect(event).toMatchObject({ user_agent: AGENT, metadata: { email: OWNER.email, reason: 'invalid_credentials' } });
      // The successful owner login clears the account's failure count (no lock-out carried over).
      expect((await client('127.0.0.1').post('/api/v1/session', OWNER)).status).toBe(201);
    });

    it('answers 400 for malformed JSON and missing fields', async () => {
      const malformed = await client().request('POST', '/api/v1/session', '{"email":', { 'content-type': 'application/json' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: expect.any(String) });
      const missing = await client().post('/api/v1/session', { email: OWNER.email });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: expect.stringContaining('password') });
    });

    it('revokes the session on logout (then 401 Token expired) and audits logout', async () => {
      const http = client();
      const login = await http.post('/api/v1/session', OWNER);
      expect(login.status).toBe(201);
      const userId = login.body.user.id;
      const token = sessionCookie(login);
      const logout = await http.delete('/api/v1/session');
      expect(logout.status).toBe(204);
      expect(logout.headers.get('set-cookie')).toMatch(/gw_session=;/);
      const after = await client().request('GET', '/api/v1/session', undefined, { cookie: `gw_session=${token}` });
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ error: 'Token expired' });
      expect(await audited('logout', { user_id: userId })).toBeDefined();
      const { rows } = await db.query('SELECT revoked_at FROM sessions WHERE id = $1', [token.split('.')[0]]);
      expect(rows[0].revoked_at).not.toBeNull();
    });

    it('answers 401 Invalid token for a tampered or garbage session and Unauthorized without one', async () => {
      const http = client();
      const login = await http.post('/api/v1/session', OWNER);
      expect(login.status).toBe(201);
      const token = sessionCookie(login);
      const last = token.slice(-1);
      const tampered = `${token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
      for (const value of [tampered, 'garbage', `${randomUUID()}.${'x'.repeat(43)}`]) {
        const response = await client().request('GET', '/api/v1/session', undefined, { cookie: `gw_session=${value}` });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ error: 'Invalid token' });
      }
      const none = await client().get('/api/v1/projects');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ error: 'Unauthorized' });
      expect((await http.get('/api/v1/session')).status).toBe(200);
    });
  });

  describe('invites, email verification and roles', () => {
    it('invites a member (admin/owner only), stores only a hash of the token, and audits member_invited', async () => {
      const address = email('invitee');
      const invite = await owner.post('/api/v1/members', { email: address, role: 'member' });
      expect(invite.status).toBe(201);
      expect(invite.body).toEqual({ id: expect.any(String), email: address, role: 'member', invite_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) });
      const { rows } = await db.query('SELECT * FROM invites WHERE id = $1', [invite.body.id]);
      expect(JSON.stringify(rows[0])).not.toContain(invite.body.invite_token);
      const notes = await db.query("SELECT * FROM notifications WHERE kind = 'invite' AND recipient = $1", [address]);
      expect(notes.rows).toHaveLength(1);
      expect(JSON.stringify(notes.rows[0])).not.toContain(invite.body.invite_token);
      const mail = openNotification(stack.apps.get('control-plane')!.env.GATEWAY_ENCRYPTION_KEYS, notes.rows[0].payload_key_id, notes.rows[0].payload_ciphertext);
      expect(mail).toMatchObject({ token: invite.body.invite_token, role: 'member' });
      expect(await audited('member_invited', { invite_id: invite.body.id, email: address, role: 'member' })).toBeDefined();
    });

    it('validates invites: 422 for a bad email, role or taken address; 403 for a member, or an admin inviting an owner', async () => {
      const badEmail = await owner.post('/api/v1/members', { email: 'not-an-email', role: 'member' });
      expect(badEmail.status).toBe(422);
      expect(badEmail.body).toEqual({ errors: ['Email is invalid'] });
      const badRole = await owner.post('/api/v1/members', { email: email('x'), role: 'superuser' });
      expect(badRole.status).toBe(422);
      expect(badRole.body).toEqual({ errors: ['Role must be one of owner, admin, member'] });
      const taken = await owner.post('/api/v1/members', { email: OWNER.email, role: 'member' });
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual({ errors: ['Email has already been taken'] });
      const missing = await owner.post('/api/v1/members', { role: 'member' });
      expect(missing.status).toBe(400);
      const plain = await member('member');
      const byMember = await plain.http.post('/api/v1/members', { email: email('y'), role: 'member' });
      expect(byMember.status).toBe(403);
      expect(byMember.body).toEqual({ error: 'Forbidden' });
      const admin = await member('admin');
      expect((await admin.http.post('/api/v1/members', { email: email('z'), role: 'owner' })).status).toBe(403);
      expect((await admin.http.post('/api/v1/members', { email: email('z'), role: 'admin' })).status).toBe(201);
    });

    it('accepts an invite once, with a password policy, and then verifies the email with the mailed token', async () => {
      const address = email('joiner');
      const invite = await owner.post('/api/v1/members', { email: address, role: 'admin' });
      const badToken = await client().post('/api/v1/members/accept', { token: 'nope', password: 'long-enough-123' });
      expect(badToken.status).toBe(422);
      expect(badToken.body).toEqual({ errors: ['Invite token is invalid or expired'] });
      const shortPassword = await client().post('/api/v1/members/accept', { token: invite.body.invite_token, password: 'short' });
      expect(shortPassword.status).toBe(422);
      expect(shortPassword.body).toEqual({ errors: ['Password is too short (minimum is 8 characters)'] });
      const accepted = await client().post('/api/v1/members/accept', { token: invite.body.invite_token, password: 'joiner-password-1', name: 'Joiner' });
      expect(accepted.status).toBe(201);
      expect(accepted.body.user).toMatchObject({ email: address, name: 'Joiner', role: 'admin', email_verified: false, mfa_enabled: false });
      const again = await client().post('/api/v1/members/accept', { token: invite.body.invite_token, password: 'joiner-password-1' });
      expect(again.status).toBe(422);

      const { rows: users } = await db.query('SELECT password_hash FROM users WHERE email = $1', [address]);
      expect(users[0].password_hash).toMatch(/^\$argon2id\$/);

      const notes = await db.query("SELECT * FROM notifications WHERE kind = 'email_verification' AND recipient = $1", [address]);
      expect(notes.rows).toHaveLength(1);
      const { token } = openNotification(stack.apps.get('control-plane')!.env.GATEWAY_ENCRYPTION_KEYS, notes.rows[0].payload_key_id, notes.rows[0].payload_ciphertext);
      const { rows: stored } = await db.query('SELECT * FROM email_verifications WHERE user_id = $1', [accepted.body.user.id]);
      expect(JSON.stringify(stored)).not.toContain(token);
      const wrong = await client().post('/api/v1/session/verify-email', { token: 'not-a-token' });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ errors: ['Verification token is invalid or expired'] });
      const verified = await client().post('/api/v1/session/verify-email', { token });
      expect(verified.status).toBe(204);
      expect((await client().post('/api/v1/session/verify-email', { token })).status).toBe(422);
      const http = client();
      expect((await http.post('/api/v1/session', { email: address, password: 'joiner-password-1' })).body.user).toMatchObject({ role: 'admin', email_verified: true });
      expect(await audited('email_verified', { user_id: accepted.body.user.id, email: address })).toBeDefined();
    });

    it('lets a member read projects and keys but not create, change or delete them, nor read audit events', async () => {
      const project = await owner.post('/api/v1/projects', { project: { name: `roles-${randomUUID().slice(0, 6)}` } });
      expect(project.status).toBe(201);
      const plain = await member('member');
      const listed = await plain.http.get('/api/v1/projects');
      expect(listed.status).toBe(200);
      expect(listed.body.map((p: any) => p.id)).toContain(project.body.id);
      expect((await plain.http.get(`/api/v1/projects/${project.body.id}`)).status).toBe(200);
      expect((await plain.http.get(`/api/v1/projects/${project.body.id}/models`)).status).toBe(200);
      expect((await plain.http.get('/api/v1/keys')).status).toBe(200);
      const forbidden: [string, string, unknown][] = [
        ['POST', '/api/v1/projects', { project: { name: 'nope' } }],
        ['PATCH', `/api/v1/projects/${project.body.id}`, { project: { name: 'nope' } }],
        ['DELETE', `/api/v1/projects/${project.body.id}`, undefined],
        ['POST', `/api/v1/projects/${project.body.id}/models`, { model_definition: { name: 'm', identifier: 'm', provider: 'openai' } }],
        ['POST', '/api/v1/keys', { name: 'k', project_id: project.body.id }],
        ['GET', '/api/v1/audit-events', undefined],
        ['GET', '/api/v1/organization/blocked-ips', undefined],
        ['PUT', '/api/v1/organization/blocked-ips', { ips: [] }],
      ];
      for (const [method, path, body] of forbidden) {
        const response = await plain.http.request(method, path, body);
        expect({ method, path, status: response.status, body: response.body }).toEqual({ method, path, status: 403, body: { error: 'Forbidden' } });
      }

      const admin = await member('admin');
      const created = await admin.http.post('/api/v1/projects', { project: { name: `by-admin-${randomUUID().slice(0, 6)}` } });
      expect(created.status).toBe(201);
      expect((await admin.http.get('/api/v1/audit-events')).status).toBe(200);
      expect((await admin.http.delete(`/api/v1/projects/${created.body.id}`)).status).toBe(204);
    });
  });

  describe('TOTP multi-factor', () => {
    it('enables with a provisioning URI, activates with a code, then asks for the code at login', async () => {
      const admin = await member('admin');
      const setup = await admin.http.post('/api/v1/session/mfa');
      expect(setup.status).toBe(200);
      expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(setup.body.provisioning_uri).toBe(
        `otpauth://totp/${encodeURIComponent(`Governed AI Gateway:${admin.address}`)}?secret=${setup.body.secret}&issuer=Governed+AI+Gateway&algorithm=SHA1&digits=6&period=30`,
      );
      const { rows } = await db.query('SELECT mfa_secret, mfa_secret_key_id FROM users WHERE id = $1', [admin.userId]);
      expect(rows[0].mfa_secret).not.toContain(setup.body.secret);
      expect(rows[0].mfa_secret_key_id).toBe('k1');

      const wrong = await admin.http.post('/api/v1/session/mfa/verify', { code: totp(setup.body.secret, currentStep() + 5) });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ errors: ['Invalid MFA code'] });
      expect(await audited('mfa_failed', { user_id: admin.userId, context: 'verify' })).toBeDefined();
      const step = currentStep();
      expect((await admin.http.post('/api/v1/session/mfa/verify', { code: totp(setup.body.secret, step) })).status).toBe(204);
      expect(await audited('mfa_enabled', { user_id: admin.userId })).toBeDefined();
      expect(await audited('mfa_verified', { user_id: admin.userId, context: 'activation' })).toBeDefined();
      expect((await admin.http.get('/api/v1/session')).body.user.mfa_enabled).toBe(true);
      expect((await admin.http.post('/api/v1/session/mfa')).status).toBe(422);

      const http = client();
      const noCode = await http.post('/api/v1/session', { email: admin.address, password: admin.password });
      expect(noCode.status).toBe(401);
      expect(noCode.body).toEqual({ error: 'MFA code required', mfa_required: true });
      expect(noCode.headers.get('set-cookie')).toBeNull();
      const badCode = await http.post('/api/v1/session', { email: admin.address, password: admin.password, otp: totp(setup.body.secret, step + 7) });
      expect(badCode.status).toBe(401);
      expect(badCode.body).toEqual({ error: 'Invalid MFA code' });
      expect(await audited('mfa_failed', { user_id: admin.userId, context: 'login' })).toBeDefined();
      // The code used for activation cannot be replayed; the next step's code (within ±1) works once.
      const replay = await http.post('/api/v1/session', { email: admin.address, password: admin.password, otp: totp(setup.body.secret, step) });
      expect(replay.status).toBe(401);
      const next = totp(setup.body.secret, step + 1);
      const good = await http.post('/api/v1/session', { email: admin.address, password: admin.password, otp: next });
      expect(good.status).toBe(201);
      expect(good.body.user.mfa_enabled).toBe(true);
      expect(await audited('mfa_verified', { user_id: admin.userId, context: 'login' })).toBeDefined();
      expect((await client().post('/api/v1/session', { email: admin.address, password: admin.password, otp: next })).status).toBe(401);
    });

    it('disables with a current code (a wrong one is refused and audited)', async () => {
      const plain = await member('member');
      const setup = await plain.http.post('/api/v1/session/mfa');
      const step = currentStep();
      expect((await plain.http.post('/api/v1/session/mfa/verify', { code: totp(setup.body.secret, step) })).status).toBe(204);
      const wrong = await plain.http.request('DELETE', '/api/v1/session/mfa', { code: totp(setup.body.secret, step + 5) });
      expect(wrong.status).toBe(422);
      expect(await audited('mfa_failed', { user_id: plain.userId, context: 'disable' })).toBeDefined();
      const missing = await plain.http.request('DELETE', '/api/v1/session/mfa', {});
      expect(missing.status).toBe(400);
      const disabled = await plain.http.request('DELETE', '/api/v1/session/mfa', { code: totp(setup.body.secret, step + 1) });
      expect(disabled.status).toBe(204);
      expect(await audited('mfa_disabled', { user_id: plain.userId })).toBeDefined();
      expect((await client().post('/api/v1/session', { email: plain.address, password: plain.password })).status).toBe(201);
      const { rows } = await db.query('SELECT mfa_enabled, mfa_secret FROM users WHERE id = $1', [plain.userId]);
      expect(rows[0]).toEqual({ mfa_enabled: false, mfa_secret: null });
    });
  });

  describe('login throttling', () => {
    const expectThrottled = (response: JsonResponse) => {
      expect(response.status).toBe(429);
      expect(response.body).toEqual({ error: 'Too many attempts. Try again later.', code: 'TOO_MANY_ATTEMPTS' });
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
    };

    it('locks an account after 5 failures in 15 minutes, even for the right password, from any address', async () => {
      const victim = await member('member', 'victim-password-1');
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await client().post('/api/v1/session', { email: victim.address, password: `wrong-${attempt}` })).status).toBe(401);
      }
      expectThrottled(await client().post('/api/v1/session', { email: victim.address, password: 'wrong-again' }));
      expectThrottled(await client().post('/api/v1/session', { email: victim.address, password: victim.password }));
      expect(await audited('login_failed', { email: victim.address, reason: 'throttled' })).toBeDefined();
      // Other accounts are unaffected.
      expect((await client().post('/api/v1/session', OWNER)).status).toBe(201);
    });

    it('locks an address after 20 failures across accounts', async () => {
      const ip = freshIp();
      for (let attempt = 0; attempt < 20; attempt++) {
        expect((await client(ip).post('/api/v1/session', { email: email('spray'), password: 'guess-123456' })).status).toBe(401);
      }
      expectThrottled(await client(ip).post('/api/v1/session', { email: email('spray'), password: 'guess-123456' }));
      expectThrottled(await client(ip).post('/api/v1/session', OWNER));
      expect((await client().post('/api/v1/session', OWNER)).status).toBe(201);
    });
  });
});

describe('control-plane session expiry and cookie flags (production mode, 3.6 s sessions)', () => {
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane'],
    databasePrefix: 'gw_it_cp_ttl',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password, SESSION_TTL_HOURS: '0.001', CONTROL_PLANE_SPEND_DURABLE: 'control-plane-it-ttl' },
      edge: { SESSION_COOKIE_SECURE: 'true', SESSION_COOKIE_SAMESITE: 'Strict' },
    },
  });

  beforeAll(async () => {
    await stack.startAll();
  }, 120_000);

  afterAll(async () => {
    await stack.stopAll();
  }, 60_000);

  it('sets a Secure SameSite=Strict cookie when configured and answers 401 Token expired once the session is stale', async () => {
    const http = new TestHttpClient(stack.edgeUrl);
    const login = await http.post('/api/v1/session', OWNER);
    expect(login.status).toBe(201);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(new Date(login.body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(3_600);
    expect((await http.get('/api/v1/session')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, new Date(login.body.expires_at).getTime() - Date.now()) + 200));
    const stale = await http.get('/api/v1/session');
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ error: 'Token expired' });
    expect((await http.get('/api/v1/projects')).body).toEqual({ error: 'Unauthorized' });
  });
});
