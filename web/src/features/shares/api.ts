import { api } from '@/shared/api/client';
import { queryOptions } from '@tanstack/react-query';
import type { Schemas } from '@/shared/api/schema';
import { ErrorCode } from '@/shared/http';

/** GET /api/v1/shares: who can see the caller's plants and what is shared with them. */
export type SharesOverview = Schemas['SharesOverview'];
export type PlantShare = Schemas['PlantShare'];
export type ServingCompany = Schemas['ServingCompany'];
export type CustomerOffer = Schemas['CustomerOffer'];
export type AgentOffer = Schemas['AgentOffer'];
export type AgentLink = Schemas['AgentLink'];
export type Principal = Schemas['Principal'];
export type Right = Schemas['Right'];

/** Under `plants`, so that anything that changes plants (leaving a share) refreshes it too. */
export const sharesKey = ['plants', 'shares'] as const;

export const sharesQuery = queryOptions({
  queryKey: sharesKey,
  queryFn: () => api.get('/api/v1/shares', { silent: true }),
});

/** A request or relation that is gone (answered elsewhere, withdrawn) answers 4. */
const gone = { handledCodes: [ErrorCode.InvalidParameter] };

export const acceptCustomerOffer = (id: number) =>
  api.post('/api/v1/customer/offer/{id}/accept', { body: {}, path: { id }, ...gone });
export const declineCustomerOffer = (id: number) =>
  api.post('/api/v1/customer/offer/{id}/decline', { body: {}, path: { id }, ...gone });
export const endCustomerRelation = (id: number) =>
  api.post('/api/v1/customer/relation/{id}/end', { body: {}, path: { id }, ...gone });

/** The owner ends someone's share of their plant; without `userId` the caller leaves it. */
export const cancelShare = (plantId: number, userId?: number) =>
  api.post('/api/v1/plant/{id}/cancelShare', {
    path: { id: plantId },
    body: userId === undefined ? {} : { userId },
  });

export const acceptAgentOffer = (id: number) =>
  api.post('/api/v1/agent/offer/{id}/accept', {
    body: {},
    path: { id },
    handledCodes: [ErrorCode.InvalidParameter, ErrorCode.AgentTaken],
  });
export const declineAgentOffer = (id: number) =>
  api.post('/api/v1/agent/offer/{id}/decline', { body: {}, path: { id }, ...gone });
export const withdrawAgentOffer = (id: number) =>
  api.post('/api/v1/agent/offer/{id}/withdraw', { body: {}, path: { id }, ...gone });
export const leavePrincipal = () =>
  api.post('/api/v1/agent/principal/leave', { body: {}, ...gone });
export const removeAgent = (id: number) =>
  api.post('/api/v1/agent/{id}/delete', { body: {}, path: { id }, ...gone });
