/** The conversation id `agent` names a user's personal-agent thread (core-api.md). */
export const AGENT_THREAD_ALIAS = 'agent';
