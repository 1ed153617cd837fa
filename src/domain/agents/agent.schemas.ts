import { z } from 'zod';

export const AGENT_NAME_MAX = 100;
/** External agents one person may register; the hosted negotiator is not counted. */
export const EXTERNAL_AGENTS_MAX = 20;

const name = z.string().trim().min(1, 'The name cannot be empty').max(AGENT_NAME_MAX, `At most ${AGENT_NAME_MAX} characters`);

/** The inputs of the area; the GraphQL inputs and REST bodies derive from them (docs/adr/0124-one-schema-per-input.md). */
export const createAgentSchema = z.object({ name });

export const updateAgentSchema = z
  .object({
    name,
    status: z.enum(['active', 'inactive'], 'status is active or inactive').meta({ description: 'active or inactive' }),
    handleNegotiations: z.boolean().meta({ description: 'true selects this agent as negotiator; false on the selected agent clears the selection' }),
  })
  .partial()
  .refine((p) => p.name !== undefined || p.status !== undefined || p.handleNegotiations !== undefined, {
    message: 'Send at least one of name, status, handleNegotiations',
  })
  .refine((p) => !(p.status === 'inactive' && p.handleNegotiations === true), {
    message: 'An inactive agent cannot hold the negotiation seat',
    path: ['handleNegotiations'],
  });

export type UpdateAgent = z.infer<typeof updateAgentSchema>;
