import { conflict, forbidden, notFound } from '../shared/errors';

export const conversationNotFound = () => notFound('Conversation');

/** The agent is not (or no longer) the owner's selected negotiator: it must stop acting for them. */
export const notSelectedNegotiator = (agentId: string) =>
  conflict('not_selected_negotiator', { detail: `Agent ${agentId} does not hold the negotiation seat; stop this work` });

export const agentKeyRequired = (agentId: string) =>
  forbidden(`Agent-thread entries are written with the API key issued to agent ${agentId}`);

export const ownerVoiceRequired = () =>
  forbidden("Answers are the owner's: send them with the owner's session or a key not issued to an agent");
