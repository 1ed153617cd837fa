#!/usr/bin/env node
// An example negotiator for `intro agent run -- node negotiator.js`.
//
// The bridge runs this program once per turn awaited from you. It reads one JSON object on
// standard input: { opportunityId, agentId, me: { userId }, intent: { id, payload },
// negotiation: { turns, counterparty, introducer, protocol: { availableActions, ... } } }
// and prints one JSON turn on standard output: { "action": "...", "message": "..." }.
// Anything written to standard error shows in the bridge's terminal.
//
// Its policy, kept simple on purpose: accept a standing proposal from the other seat when the
// other side has said what it offers; open with a proposal that restates both sides; answer a
// question (a counter) by proposing again; decline when nothing else is allowed.
'use strict';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const req = JSON.parse(input);
  const n = req.negotiation;
  const allowed = n.protocol.availableActions;
  const mine = req.intent ? req.intent.payload : 'my intent';
  const theirs = n.counterparty ? n.counterparty.statement : 'your intent';
  const last = n.turns.length ? n.turns[n.turns.length - 1] : null;
  const fromOther = last && last.seatUserId !== req.me.userId;

  let turn;
  if (allowed.includes('accept') && fromOther && last.action === 'propose') {
    turn = { action: 'accept', message: `Agreed: an introduction fits. I am after "${clip(mine)}", and you said "${clip(last.message)}".` };
  } else if (allowed.includes('propose')) {
    turn = { action: 'propose', message: `Proposing an introduction. My side: "${clip(mine)}". Your side: "${clip(theirs)}". Shall we meet?` };
  } else if (allowed.includes('counter')) {
    turn = { action: 'counter', message: `Before agreeing: how does "${clip(theirs)}" match "${clip(mine)}"?` };
  } else {
    turn = { action: 'decline', message: 'No further turn fits here; declining.' };
  }
  process.stderr.write(`negotiator: ${turn.action} on ${req.opportunityId}\n`);
  process.stdout.write(`${JSON.stringify(turn)}\n`);
});

function clip(text) {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
