import { Agent } from './agent.entity';
import { ApiKey } from './api-key.entity';
import { EventCounter, EventRecord } from './event.entity';
import { Intent } from './intent.entity';
import { IntentNetwork } from './intent-network.entity';
import { Network } from './network.entity';
import { NetworkMember } from './network-member.entity';
import { Session } from './session.entity';
import { Subscriber } from './subscriber.entity';
import { User } from './user.entity';

/** Every entity the ORM knows; add new ones here (one line each). */
export const entities = [
  User,
  Session,
  ApiKey,
  Agent,
  Network,
  NetworkMember,
  Intent,
  IntentNetwork,
  EventRecord,
  EventCounter,
  Subscriber,
];
