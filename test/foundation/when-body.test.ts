import express from 'express';
import supertest from 'supertest';
import { whenBody } from '../../src/rest/when-body';

/** The JSON parser runs only for requests that carry a body; what the handler sees is unchanged. */
describe('whenBody', () => {
  const parsed: string[] = [];
  const app = express();
  const json = express.json({ strict: false });
  app.use(
    whenBody((req, res, next) => {
      parsed.push(`${req.method} ${req.url}`);
      json(req, res, next);
    }),
  );
  app.use((req, res) => {
    res.json({ hasBody: 'body' in req, body: req.body ?? null });
  });

  it('skips the parser for a request without Content-Length or Transfer-Encoding', async () => {
    parsed.length = 0;
    expect((await supertest(app).get('/a').expect(200)).body).toEqual({ hasBody: false, body: null });
    expect((await supertest(app).delete('/b').expect(200)).body).toEqual({ hasBody: false, body: null });
    expect(parsed).toEqual([]);
  });

  it('parses any request that carries a body, GET and DELETE included', async () => {
    parsed.length = 0;
    expect((await supertest(app).delete('/c').send({ x: 1 }).expect(200)).body).toEqual({ hasBody: true, body: { x: 1 } });
    expect((await supertest(app).post('/d').set('content-type', 'application/json').send('').expect(200)).body.hasBody).toBe(true);
    expect((await supertest(app).post('/e').send({ y: [2] }).expect(200)).body).toEqual({ hasBody: true, body: { y: [2] } });
    expect(parsed).toEqual(['DELETE /c', 'POST /d', 'POST /e']);
    await supertest(app).post('/f').set('content-type', 'application/json').send('{bad').expect(400);
  });
});
