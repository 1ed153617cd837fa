import type { NegotiatorPolicy } from '../../src/domain/negotiations/ports';
import { HostedNegotiator } from '../../src/domain/negotiations/hosted-negotiator.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createExternalAgent } from '../conversations/helpers';
import { framesOf, negotiationOf, openAsA, sql, twoParties, UUID, type World } from '../opportunities/helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const PIXEL_NEED = 'Need a pixel artist for character sprites + animations (32x32) for a metroidvania. Paid per sprite sheet, about 3 months of work.';
// A detail is asked about only where an intent states it as a requirement ("only").
const PIXEL_ARTIST = 'Pixel artist: I draw and animate low-res characters and tilesets (16/32 px) — two shipped side-scrolling exploration games on my CV. Open to contract work only, from next month.';
const DOG_OWNER = 'Need someone to board my 2 senior dogs (quiet, leash-trained) over Thanksgiving week only. South Austin.';
const DOG_SITTER = 'Dog sitter in South Austin with a fenced yard — house-sitting and boarding, great references.';

async function opened(a: string, b: string, names?: [string, string]): Promise<World & { id: string; negotiationId: string }> {
  const w = await twoParties(app, a, b, names);
  const id = await openAsA(app, w);
  const n = await negotiationOf(app, w.a.user, id);
  return { ...w, id, negotiationId: n.id };
}

const run = (negotiationId: string) => app.withEm(() => app.services.negotiator.runUntilStopped(negotiationId));
const turnsOf = async (w: World & { id: string }) => (await negotiationOf(app, w.a.user, w.id)).turns as Array<{ seatUserId: string; action: string; message: string }>;
const questionsIn = (m: string) => m.split(/(?<=[?.!])\s+|\n+/).filter((s) => s.trim().endsWith('?'));

/** Answers the owner's waiting question the way a client does (the answers route), which fires `agent.answered`. */
async function answerInThread(w: World, party: 'a' | 'b', text: string): Promise<string> {
  const p = w[party];
  const thread = await app.http.get(`/api/conversations/agent/messages?intentId=${p.intentId}`).set(p.user.auth).expect(200);
  const [question] = thread.body.agent.questions;
  await app.http.post('/api/conversations/agent/answers').set(p.user.auth).send({ intentId: p.intentId, answers: [{ questionId: question.id, text }] }).expect(201);
  return question.id;
}

describe('the hosted negotiator', () => {
  it('agrees when every requirement of both intents holds: propose, then accept', async () => {
    const w = await opened(
      'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.',
      'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.',
    );
    expect(await run(w.negotiationId)).toBe('settled');
    const turns = await turnsOf(w);
    expect(turns.map((t) => [t.seatUserId, t.action])).toEqual([
      [w.a.user.user.id, 'propose'],
      [w.b.user.user.id, 'accept'],
    ]);
    expect(turns[0].message).toMatch(/^Proposal: an introduction between Ada Founder and Ben Investor\./);
    expect(turns[1].message).toMatch(/^Accepted: every requirement of Ben Investor's intent checks out/);
    expect((await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth)).body.status).toBe('pending');
    const [row] = await sql(app, `select agent_id from negotiation_turns t join negotiations n on n.id = t.negotiation_id where n.id = ? and t.turn_index = 0`, [w.negotiationId]);
    const [system] = await sql(app, `select id from agents where owner_id = ? and type = 'system'`, [w.a.user.user.id]);
    expect(row.agent_id).toBe(system.id);
  });

  it('declines on a contradiction, saying which one', async () => {
    const w = await opened(
      'Raising a seed round for our savings app in Warsaw. Looking for seed investors in Central and Eastern Europe.',
      'Raising a seed round for our savings app for freelancers in Romania. Looking for seed investors who know CEE fintech.',
      ['Ada Founder', 'Bo Founder'],
    );
    expect(await run(w.negotiationId)).toBe('settled');
    const turns = await turnsOf(w);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ action: 'decline', message: expect.stringMatching(/^Declining: Bo Founder is looking for "seed".* too/) });
    expect((await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth)).body.status).toBe('rejected');
    expect((await negotiationOf(app, w.a.user, w.id)).outcome).toBe('declined');
  });

  it('counters with one question when a requirement is unknown, asks its owner when only the owner can answer, and continues from the answer', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST, ['Gia Studio', 'Hal Artist']);
    // Gia's negotiator proposes; Hal's asks about the one thing Gia's intent leaves open.
    expect(await run(w.negotiationId)).toBe('asked-owner');
    let turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'counter']);
    expect(questionsIn(turns[1].message)).toHaveLength(1);
    expect(turns[1].message).toMatch(/^Question: Does a contract or freelance arrangement work for you\?$/);
    // Gia's intent does not say: her negotiator asks her in the agent thread.
    const [pending] = await framesOf(app, w.a.user.user.id, 'question.pending');
    expect(pending).toMatchObject({ data: { intentId: w.a.intentId, questionId: UUID, scope: 'match', opportunityId: w.id } });
    const thread = await app.http.get(`/api/conversations/agent/messages?intentId=${w.a.intentId}`).set(w.a.user.auth);
    expect(thread.body.agent.questions).toEqual([
      expect.objectContaining({ id: pending.data.questionId, scope: 'match', question: expect.stringContaining('Does a contract or freelance arrangement work for you?'), matches: [{ opportunityId: w.id, counterparty: { id: w.b.user.user.id, name: 'Hal Artist' } }] }),
    ]);
    // Running again while the question waits does nothing.
    expect(await run(w.negotiationId)).toBe('waiting-owner');
    expect(await turnsOf(w)).toHaveLength(2);
    // Gia answers; the negotiator passes it on with a new proposal, and Hal's accepts.
    await answerInThread(w, 'a', 'Yes, contract work is exactly what we offer.');
    expect(await run(w.negotiationId)).toBe('settled');
    turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'counter', 'propose', 'accept']);
    expect(turns[2].message).toContain('Answer (from Gia Studio, to "Does a contract or freelance arrangement work for you?"): Yes, contract work is exactly what we offer.');
    // Never the other seat's words as its own turn.
    expect(new Set(turns.map((t) => t.message)).size).toBe(turns.length);
  });

  it('opens only on checked terms: a requirement the other intent leaves open goes to the owner before the first proposal', async () => {
    const w = await opened(DOG_OWNER, DOG_SITTER, ['Ivy Owner', 'Jo Sitter']);
    // The sitter's intent says nothing of November, and a proposal could be accepted without an answer.
    expect(await run(w.negotiationId)).toBe('asked-owner');
    expect(await turnsOf(w)).toEqual([]);
    const [opening] = await framesOf(app, w.a.user.user.id, 'question.pending');
    expect(opening.data).toMatchObject({ intentId: w.a.intentId, scope: 'match', opportunityId: w.id });
    const thread = await app.http.get(`/api/conversations/agent/messages?intentId=${w.a.intentId}`).set(w.a.user.auth);
    expect(thread.body.agent.questions[0].question).toBe(
      "Jo Sitter's intent does not say whether November works for them, and I can only open with a proposal, which they could accept without answering. Should I propose anyway (and ask them)? Reply yes to propose, or no to decline.",
    );
    // Running again while the owner has not answered does nothing.
    expect(await run(w.negotiationId)).toBe('waiting-owner');
    // An owner who says no: the negotiator declines rather than propose on an unchecked requirement.
    const w2 = await opened(DOG_OWNER, DOG_SITTER, ['Ivy Owner', 'Jo Sitter']);
    expect(await run(w2.negotiationId)).toBe('asked-owner');
    await answerInThread(w2, 'a', 'No.');
    expect(await run(w2.negotiationId)).toBe('settled');
    expect((await turnsOf(w2)).map((t) => t.action)).toEqual(['decline']);
  });

  it('asks its owner when the other seat asks what only the owner knows; a "no" from the owner is passed on and ends it', async () => {
    const w = await opened(DOG_OWNER, DOG_SITTER, ['Ivy Owner', 'Jo Sitter']);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    // Ivy lets it open; the proposal asks the question she could not settle.
    await answerInThread(w, 'a', 'Yes.');
    expect(await run(w.negotiationId)).toBe('asked-owner');
    const turns = await turnsOf(w);
    expect(turns).toHaveLength(1);
    expect(turns[0].message).toMatch(/Question: Are you available in November\?/);
    expect(turns[0].message).not.toMatch(/Checked against[^\n]*November/);
    const [pending] = await framesOf(app, w.b.user.user.id, 'question.pending');
    expect(pending.data).toMatchObject({ intentId: w.b.intentId, opportunityId: w.id });
    await answerInThread(w, 'b', 'No, I am away all of November.');
    expect(await run(w.negotiationId)).toBe('settled');
    const after = await turnsOf(w);
    // Jo's negotiator does not accept a proposal its answer contradicts: it answers, and Ivy's declines.
    expect(after.map((t) => t.action)).toEqual(['propose', 'counter', 'decline']);
    expect(after[1].message).toBe('Answer (from Jo Sitter, to "Are you available in November?"): No, I am away all of November.');
    expect((await negotiationOf(app, w.a.user, w.id)).outcome).toBe('declined');
  });

  it('never doubles a turn: a repeated or late job finds the turn taken', async () => {
    const w = await opened(
      'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.',
      'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.',
    );
    const outcomes = await Promise.all([0, 1, 2].map(() => app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0))));
    expect(outcomes.filter((o) => o === 'turn')).toHaveLength(1);
    expect(outcomes.every((o) => ['turn', 'raced', 'stale'].includes(o))).toBe(true);
    expect(await turnsOf(w)).toHaveLength(1);
    // A job for a turn index already taken is stale.
    expect(await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0))).toBe('stale');
  });

  it('does not take the turn of an owner who selected an external agent', async () => {
    const w = await opened(
      'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.',
      'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.',
    );
    await createExternalAgent(app, w.a.user.user.id);
    expect(await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0))).toBe('not-hosted');
    expect(await turnsOf(w)).toEqual([]);
  });

  it('waits while an intent is paused', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST);
    await app.http.patch(`/api/intents/${w.b.intentId}/status`).set(w.b.user.auth).send({ status: 'paused' }).expect(200);
    expect(await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0))).toBe('inactive');
  });
});

describe('the sweep', () => {
  it('expires the owner’s question once the negotiation moved on without the answer', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST, ['Gia Studio', 'Hal Artist']);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    const questions = async () => (await app.http.get(`/api/conversations/agent/messages?intentId=${w.a.intentId}`).set(w.a.user.auth)).body.agent.questions;
    expect(await questions()).toHaveLength(1);
    // Gia takes the turn herself.
    await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.a.user.auth).send({ action: 'decline', message: 'We found someone.' }).expect(200);
    const swept = await app.withEm(() => app.services.negotiator.sweep());
    expect(swept.expired).toBe(1);
    expect(await questions()).toEqual([]);
    expect((await app.withEm(() => app.services.negotiator.sweep())).expired).toBe(0);
  });

  it('picks up an answer in the thread whose notice was lost', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST, ['Gia Studio', 'Hal Artist']);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    const [q] = await sql(app, `select id from negotiation_questions where negotiation_id = ?`, [w.negotiationId]);
    // The thread records the answer, but no agent.answered notice reaches the negotiator.
    await sql(app, `update agent_questions set status = 'answered', answer = 'Yes, contract is fine.' where owner_id = ? and id = ?`, [w.a.user.user.id, q.id]);
    expect(await run(w.negotiationId)).toBe('waiting-owner');
    const swept = await app.withEm(() => app.services.negotiator.sweep());
    expect(swept.answers).toBe(1);
    expect(await run(w.negotiationId)).toBe('settled');
  });
});

describe('what the other seat proposes', () => {
  const INVESTOR = 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.';
  const FOUNDER = 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.';
  const TERMS = 'We invest €1M at the seed stage in exchange for 60% of the company and full control of the board.';

  /** Ben (investor) opens and plays his own seat through an external agent; Ada (founder) has the hosted negotiator. */
  async function withBenInPerson(): Promise<World & { id: string; negotiationId: string; ben: (action: string, message: string) => Promise<void> }> {
    const w = await opened(INVESTOR, FOUNDER, ['Ben Investor', 'Ada Founder']);
    await createExternalAgent(app, w.a.user.user.id);
    const ben = async (action: string, message: string) => {
      const res = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.a.user.auth).send({ action, message });
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    };
    return { ...w, ben };
  }

  it('does not accept terms it cannot read: the owner judges them; a no goes back once, the same terms again end it', async () => {
    const w = await withBenInPerson();
    await w.ben('propose', `Ben Investor backs Ada Founder at the seed stage. ${TERMS}`);
    // Every requirement of Ada's intent holds, but the proposal says more than the requirements.
    expect(await run(w.negotiationId)).toBe('asked-owner');
    expect(await turnsOf(w)).toHaveLength(1);
    const thread = await app.http.get(`/api/conversations/agent/messages?intentId=${w.b.intentId}`).set(w.b.user.auth);
    expect(thread.body.agent.questions).toEqual([
      expect.objectContaining({
        scope: 'match',
        question: `Ben Investor's negotiator proposes terms I cannot check against your intent: "${TERMS}" Do you agree to them? Reply yes to accept, no to refuse, or say what you would agree to.`,
      }),
    ]);
    await answerInThread(w, 'b', 'No, never.');
    expect(await run(w.negotiationId)).toBe('not-hosted');
    let turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'counter']);
    expect(turns[1].message).toBe(`Not agreed: "${TERMS}"\nAnswer (from Ada Founder): No, never.`);
    // The same terms again: declined without asking again.
    await w.ben('propose', `Ben Investor backs Ada Founder at the seed stage. ${TERMS}`);
    expect(await run(w.negotiationId)).toBe('settled');
    turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'counter', 'propose', 'decline']);
    expect(turns[3].message).toBe(`Declining: Ada Founder does not agree to "${TERMS}", and the proposal still states it.`);
    expect((await negotiationOf(app, w.b.user, w.id)).outcome).toBe('declined');
  });

  it('accepts such terms only with the owner’s yes, and says so', async () => {
    const w = await withBenInPerson();
    await w.ben('propose', TERMS);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    await answerInThread(w, 'b', 'Yes, that is fine with me.');
    expect(await run(w.negotiationId)).toBe('settled');
    const turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'accept']);
    expect((await negotiationOf(app, w.b.user, w.id)).outcome).toBe('agreed');
  });

  it('reads every statement: a new demand or an unknown word goes to the owner; a stated term that breaks a requirement declines', async () => {
    for (const extra of ['Ada Founder also handles our payroll.', 'Ada Founder sends us weekly reports.', 'Ben Investor requires exclusivity for a year.']) {
      const w = await withBenInPerson();
      await w.ben('propose', `Ben Investor backs Ada Founder at the seed stage. ${extra}`);
      expect(await run(w.negotiationId)).toBe('asked-owner');
      const [q] = await sql(app, `select topic from negotiation_questions where negotiation_id = ?`, [w.negotiationId]);
      expect(q.topic).toMatchObject({ kind: 'terms', terms: [extra] });
    }
    // Read and checked: a ticket above the whole round contradicts Ada's €1.5M.
    const w = await withBenInPerson();
    await w.ben('propose', 'Ben Investor backs Ada Founder at Series C with €20M.');
    expect(await run(w.negotiationId)).toBe('settled');
    const [, decline] = await turnsOf(w);
    expect(decline).toMatchObject({ action: 'decline', message: 'Declining: Ada Founder needs the seed stage; Ben Investor states Series C.' });
  });

  it('accepts a proposal whose every statement it reads and checks', async () => {
    const w = await withBenInPerson();
    await w.ben('propose', 'Proposal: an introduction between Ben Investor and Ada Founder. Ben Investor backs the seed stage in Central and Eastern Europe with €1M.');
    expect(await run(w.negotiationId)).toBe('settled');
    expect((await turnsOf(w)).map((t) => t.action)).toEqual(['propose', 'accept']);
  });
});

describe('an other seat that copies the negotiator’s messages', () => {
  it('never stalls: it says so with a counter, then declines; nothing it sends repeats the other seat', async () => {
    const w = await opened(
      'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.',
      'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.',
    );
    await createExternalAgent(app, w.b.user.user.id);
    const copyLast = async () => {
      const turns = await turnsOf(w);
      const res = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.b.user.auth).send({ action: 'counter', message: turns[turns.length - 1].message });
      expect(res.status).toBe(200);
    };
    expect(await run(w.negotiationId)).toBe('not-hosted');
    for (let round = 0; round < 3; round++) {
      const n = await negotiationOf(app, w.a.user, w.id);
      if (n.outcome) break;
      await copyLast();
      // Every run takes a turn (or settles): the job never goes idle on a copied message.
      expect(['not-hosted', 'settled']).toContain(await run(w.negotiationId));
    }
    const turns = await turnsOf(w);
    expect(turns.map((t) => t.action)).toEqual(['propose', 'counter', 'counter', 'counter', 'decline']);
    expect(turns[2].message).toBe("Ben Investor's last message repeats one of mine word for word, so I cannot take it as an answer. Please state your own terms, or accept or decline.");
    expect(turns[4].message).toBe("Declining: Ben Investor's negotiator repeats my messages instead of answering, so nothing it says can be checked.");
    // No turn of the negotiator repeats a message the other seat sent before it.
    turns.forEach((t, i) => {
      if (t.seatUserId !== w.a.user.user.id) return;
      expect(turns.slice(0, i).filter((x) => x.seatUserId === w.b.user.user.id).map((x) => x.message)).not.toContain(t.message);
    });
  });

  it('a policy that still produces a copied message gets a decline submitted instead of waiting forever', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST);
    await createExternalAgent(app, w.b.user.user.id);
    await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0));
    const copied = 'Exactly your words.';
    await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.b.user.auth).send({ action: 'counter', message: copied }).expect(200);
    const parrot: NegotiatorPolicy = { name: 'local', decide: async () => ({ kind: 'turn', action: 'propose', message: copied, meta: {} }) };
    const negotiator = new HostedNegotiator(app.services, app.services.jobs, parrot);
    expect(await app.withEm(() => negotiator.runTurn(w.negotiationId, 2))).toBe('turn');
    const turns = await turnsOf(w);
    expect(turns[2]).toMatchObject({ action: 'decline', message: 'Declining: the hosted negotiator could not write a turn it may send.' });
  });
});

describe('text the negotiator writes itself', () => {
  it('puts an emoji the question cuts in half into the owner’s notification whole or not at all', async () => {
    const w = await opened(
      'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.',
      'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.',
    );
    await createExternalAgent(app, w.b.user.user.id);
    expect(await run(w.negotiationId)).toBe('not-hosted');
    // "Ben Investor's negotiator asks: \"" is 33 characters: the emoji straddles the 200-character cut of the notification.
    const question = `${'x'.repeat(165)}😀 and then some more words?`;
    await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.b.user.auth).send({ action: 'counter', message: `Question: ${question}` }).expect(200);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    const [pending] = await framesOf(app, w.a.user.user.id, 'question.pending');
    expect(pending.body).toBe(`Ben Investor's negotiator asks: "${'x'.repeat(165)}…`);
  });
});
