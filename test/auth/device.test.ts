import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';

describe('device login (command line)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const code = () => app.http.post('/api/auth/device/code').expect(200);
  const poll = (deviceCode: string) => app.http.post('/api/auth/device/token').set('User-Agent', 'im-cli/0.1').send({ deviceCode });

  it('hands out a device code, a user code and where to approve it', async () => {
    const res = await code();
    expect(res.body).toEqual({
      deviceCode: expect.any(String),
      userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verificationUri: 'http://localhost:3001/device',
      verificationUriComplete: `http://localhost:3001/device?code=${res.body.userCode}`,
      expiresIn: 600,
      interval: 5,
    });
    expect(res.body.deviceCode.length).toBeGreaterThanOrEqual(32);
    expect((await code()).body.userCode).not.toBe(res.body.userCode);
  });

  it('hands out the poll interval the operator set (DEVICE_POLL_INTERVAL_S)', async () => {
    const other = await startTestApp({ DEVICE_POLL_INTERVAL_S: '2' });
    try {
      expect((await other.http.post('/api/auth/device/code').expect(200)).body.interval).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('is pending until approved, then gives a device session once', async () => {
    const owner = await createUser(app, { name: 'Cli Owner' });
    const { deviceCode, userCode } = (await code()).body;

    const pending = await poll(deviceCode);
    expect(pending.status).toBe(400);
    expect(pending.body).toMatchObject({ error: 'authorization_pending' });

    // Typed in lower case and without the dash.
    await app.http.post('/api/auth/device/approve').set(owner.auth).send({ userCode: userCode.toLowerCase().replace('-', '') }).expect(200, { success: true });

    const granted = await poll(deviceCode).expect(200);
    expect(granted.body.user).toMatchObject({ id: owner.user.id, name: 'Cli Owner' });
    const me = await app.http.get('/api/auth/me').set('Authorization', `Bearer ${granted.body.token}`).expect(200);
    expect(granted.body.user).toEqual({ ...me.body.user, did: null });

    const devices = await app.http.get('/api/auth/devices').set('Authorization', `Bearer ${granted.body.token}`).expect(200);
    expect(devices.body.devices.find((d: { current: boolean }) => d.current)).toMatchObject({ kind: 'device', provider: 'device', userAgent: 'im-cli/0.1' });

    const again = await poll(deviceCode);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', detail: 'This device code was already exchanged' });
  });

  it('answers expired_token after expiry, and an expired code cannot be approved', async () => {
    const owner = await createUser(app);
    const { deviceCode, userCode } = (await code()).body;
    await app.withEm((em) => em.execute(`update device_logins set expires_at = now() - interval '1 second' where user_code = ?`, [userCode.replace('-', '')]));
    const res = await poll(deviceCode);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'expired_token' });
    const approve = await app.http.post('/api/auth/device/approve').set(owner.auth).send({ userCode });
    expect(approve.status).toBe(404);
    expect(approve.body.error).toBe('not_found');
  });

  it('answers expired_token for an approved code that was not exchanged in time', async () => {
    const owner = await createUser(app);
    const { deviceCode, userCode } = (await code()).body;
    await app.http.post('/api/auth/device/approve').set(owner.auth).send({ userCode }).expect(200);
    await app.withEm((em) => em.execute(`update device_logins set expires_at = now() - interval '1 second' where user_code = ?`, [userCode.replace('-', '')]));
    expect((await poll(deviceCode)).body.error).toBe('expired_token');
  });

  it('refuses a second approval, an unknown user code and an unknown device code', async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const { userCode } = (await code()).body;
    await app.http.post('/api/auth/device/approve').set(owner.auth).send({ userCode }).expect(200);
    const twice = await app.http.post('/api/auth/device/approve').set(other.auth).send({ userCode });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('already_approved');
    expect((await app.http.post('/api/auth/device/approve').set(owner.auth).send({ userCode: 'BBBB-BBBB' })).status).toBe(404);
    const unknown = await poll('no-such-device-code');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'invalid_grant', detail: 'Unknown device code' });
  });

  it('approves only from a session', async () => {
    const owner = await createUser(app);
    const { userCode } = (await code()).body;
    const anon = await app.http.post('/api/auth/device/approve').send({ userCode });
    expect(anon.status).toBe(401);
    const { headers } = await createApiKey(app, owner.user.id);
    const withKey = await app.http.post('/api/auth/device/approve').set(headers).send({ userCode });
    expect(withKey.status).toBe(403);
    expect(withKey.body).toEqual({ error: 'forbidden', detail: expect.any(String) });
  });

  it('answers 400 for missing fields', async () => {
    expect((await app.http.post('/api/auth/device/token').send({})).body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'deviceCode' })] });
    const owner = await createUser(app);
    expect((await app.http.post('/api/auth/device/approve').set(owner.auth).send({})).status).toBe(400);
  });
});
