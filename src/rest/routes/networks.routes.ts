import { int, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';

const paging = (r: RestRequest) => ({ page: int(str(r.query.page)), limit: int(str(r.query.limit)) });

/** core-api.md "Networks" and decisions.md section 2; shapes in docs/adr/0020-network-shapes.md. */
export const networkRoutes: RouteTable = [
  { method: 'GET', path: '/api/networks', operation: 'MyNetworks', variables: paging, body: (d) => d.myNetworks },
  {
    method: 'POST',
    path: '/api/networks',
    operation: 'CreateNetwork',
    variables: (r) => ({ input: pick(r.body, ['title', 'prompt', 'imageUrl', 'joinPolicy']) }),
    status: 201,
    body: (d) => ({ network: d.createNetwork }),
  },
  // Fixed paths before the parameterised ones.
  { method: 'GET', path: '/api/networks/discovery/public', operation: 'PublicNetworks', variables: paging, body: (d) => d.publicNetworks },
  { method: 'GET', path: '/api/networks/public/:id', operation: 'PublicNetwork', variables: (r) => ({ id: r.params.id }), body: (d) => ({ network: d.publicNetwork }) },
  { method: 'GET', path: '/api/networks/share/:code', operation: 'SharedNetwork', variables: (r) => ({ code: r.params.code }), body: (d) => ({ network: d.sharedNetwork }) },
  {
    method: 'POST',
    path: '/api/networks/invitation/:code/accept',
    operation: 'AcceptNetworkInvitation',
    variables: (r) => ({ code: r.params.code }),
    body: (d) => d.acceptNetworkInvitation,
  },
  { method: 'GET', path: '/api/networks/:id', operation: 'Network', variables: (r) => ({ id: r.params.id }), body: (d) => ({ network: d.network }) },
  {
    method: 'PUT',
    path: '/api/networks/:id',
    operation: 'UpdateNetwork',
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['title', 'prompt', 'imageUrl', 'joinPolicy']) }),
    body: (d) => ({ network: d.updateNetwork }),
  },
  { method: 'DELETE', path: '/api/networks/:id', operation: 'DeleteNetwork', variables: (r) => ({ id: r.params.id }), body: (d) => ({ success: d.deleteNetwork }) },
  {
    method: 'GET',
    path: '/api/networks/:id/members',
    operation: 'NetworkMembers',
    variables: (r) => ({ id: r.params.id, ...paging(r) }),
    body: (d) => d.network.members,
  },
  {
    method: 'POST',
    path: '/api/networks/:id/members/invite',
    operation: 'InviteNetworkMember',
    variables: (r) => ({ networkId: r.params.id, input: pick(r.body, ['email', 'name']) }),
    body: (d) => d.inviteNetworkMember,
  },
  {
    method: 'POST',
    path: '/api/networks/:id/members',
    operation: 'AddNetworkMember',
    variables: (r) => ({ networkId: r.params.id, input: pick(r.body, ['userId', 'permissions']) }),
    body: (d) => d.addNetworkMember,
  },
  {
    method: 'PATCH',
    path: '/api/networks/:id/members/:memberId',
    operation: 'UpdateNetworkMember',
    variables: (r) => ({ networkId: r.params.id, userId: r.params.memberId, input: pick(r.body, ['permissions']) }),
    body: (d) => ({ member: d.updateNetworkMember }),
  },
  {
    method: 'DELETE',
    path: '/api/networks/:id/members/:memberId',
    operation: 'RemoveNetworkMember',
    variables: (r) => ({ networkId: r.params.id, userId: r.params.memberId }),
    body: (d) => d.removeNetworkMember,
  },
  {
    method: 'GET',
    path: '/api/networks/:id/intents',
    operation: 'NetworkIntents',
    variables: (r) => ({ id: r.params.id, ...paging(r) }),
    body: (d) => d.network.intents,
  },
  { method: 'POST', path: '/api/networks/:id/join', operation: 'JoinNetwork', variables: (r) => ({ id: r.params.id }), body: (d) => d.joinNetwork },
  { method: 'POST', path: '/api/networks/:id/leave', operation: 'LeaveNetwork', variables: (r) => ({ id: r.params.id }), body: (d) => d.leaveNetwork },
  {
    method: 'GET',
    path: '/api/networks/:id/join-requests',
    operation: 'NetworkJoinRequests',
    variables: (r) => ({ id: r.params.id, ...paging(r) }),
    body: (d) => d.network.joinRequests,
  },
  {
    method: 'POST',
    path: '/api/networks/:id/join-requests/:userId/review',
    operation: 'ReviewJoinRequest',
    variables: (r) => ({ networkId: r.params.id, userId: r.params.userId, decision: r.body.decision }),
    body: (d) => d.reviewJoinRequest,
  },

  {
    method: 'POST',
    path: '/api/network-requests',
    operation: 'CreateNetworkRequest',
    variables: (r) => ({ input: pick(r.body, ['name', 'purpose', 'audience', 'expectedSize', 'notes', 'joinPolicy']) }),
    status: 201,
    body: (d) => ({ request: d.createNetworkRequest }),
  },
  { method: 'GET', path: '/api/network-requests', operation: 'MyNetworkRequests', variables: paging, body: (d) => d.myNetworkRequests },
  { method: 'GET', path: '/api/network-requests/pending', operation: 'PendingNetworkRequests', variables: paging, body: (d) => d.pendingNetworkRequests },
  {
    method: 'PATCH',
    path: '/api/network-requests/:id',
    operation: 'UpdateNetworkRequest',
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['name', 'purpose']) }),
    body: (d) => ({ request: d.updateNetworkRequest }),
  },
  { method: 'DELETE', path: '/api/network-requests/:id', operation: 'DismissNetworkRequest', variables: (r) => ({ id: r.params.id }), body: (d) => ({ request: d.dismissNetworkRequest }) },
  { method: 'POST', path: '/api/network-requests/:id/approve', operation: 'ApproveNetworkRequest', variables: (r) => ({ id: r.params.id }), body: (d) => d.approveNetworkRequest },
];
