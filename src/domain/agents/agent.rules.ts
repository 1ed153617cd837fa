import type { AgentStatus, AgentType } from '../../entities/agent.entity';

/** An agent as the API shows it: exactly the documented fields. */
export interface AgentView {
  id: string;
  ownerId: string;
  name: string;
  type: AgentType;
  status: AgentStatus;
  handleNegotiations: boolean;
  lastSeenAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An `agents` row as read with SQL. */
export interface AgentRow {
  id: string;
  owner_id: string;
  name: string;
  type: AgentType;
  status: AgentStatus;
  handle_negotiations: boolean;
  last_seen_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The seat holder among one owner's agents, by the rule of selectedNegotiator(): the active
 * external agent that handles negotiations, else the earliest system agent.
 */
export function seatHolder(rows: readonly AgentRow[]): AgentRow | null {
  const byAge = [...rows].sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  return (
    byAge.find((r) => r.type === 'external' && r.handle_negotiations && r.status === 'active') ??
    byAge.find((r) => r.type === 'system') ??
    null
  );
}

/**
 * Views of one owner's agents. `handleNegotiations` is true on the seat holder only, so
 * exactly one agent reports it: the hosted negotiator reports true while nobody else is
 * selected (docs/adr/0017-negotiator-seat.md).
 */
export function agentViews(rows: readonly AgentRow[]): AgentView[] {
  const holder = seatHolder(rows);
  return rows.map((r) => ({
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    type: r.type,
    status: r.status,
    handleNegotiations: holder?.id === r.id,
    lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at) : null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}
