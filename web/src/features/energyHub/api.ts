import { api } from '@/shared/api/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode } from '@/shared/http';
import { oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';
import {
  ENROLLMENT_STATUSES,
  EVENT_STATUSES,
  type EnrollmentBody,
  type EnrollmentAction,
  type EnrollmentDevice,
  type EnrollmentStatus,
  type EventBody,
  type EventStatus,
  type ProgramBody,
  type VtnBody,
} from './types';

/** Every key of the energy hub under one root, so a change refreshes all its views. */
export const energyHubKeys = {
  all: ['energyHub'] as const,
  enrollments: (params: Readonly<Record<string, string | number>>) =>
    ['energyHub', 'enrollments', params] as const,
  enrollment: (id: number) => ['energyHub', 'enrollment', id] as const,
  programs: (all: boolean) => ['energyHub', 'programs', all] as const,
  timezones: ['energyHub', 'timezones'] as const,
  stations: (userId: number) => ['energyHub', 'stations', userId] as const,
  devices: (stationId: number) => ['energyHub', 'devices', stationId] as const,
  stationZone: (stationId: number) => ['energyHub', 'stationZone', stationId] as const,
  events: (params: Readonly<Record<string, string | number>>) =>
    ['energyHub', 'events', params] as const,
  event: (id: number) => ['energyHub', 'event', id] as const,
  vtns: ['energyHub', 'vtns'] as const,
};

// ---- enrollments ----------------------------------------------------------------------------

export const ENROLLMENT_FILTERS = {
  keyword: text(),
  programId: optionalId(),
  stationId: optionalId(),
  status: oneOf<EnrollmentStatus | ''>(['', ...ENROLLMENT_STATUSES], ''),
};
export type EnrollmentQuery = ListQuery<typeof ENROLLMENT_FILTERS>;

export function enrollmentParams(q: EnrollmentQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (q.keyword.trim()) params.keyword = q.keyword.trim();
  if (q.programId !== null) params.programId = q.programId;
  if (q.stationId !== null) params.stationId = q.stationId;
  if (q.status) params.status = q.status;
  return params;
}

export const enrollmentListQuery = (q: EnrollmentQuery) =>
  queryOptions({
    queryKey: energyHubKeys.enrollments(enrollmentParams(q)),
    queryFn: () =>
      api.get('/api/v1/oadr/enrollments', { query: enrollmentParams(q), silent: true }),
    placeholderData: keepPreviousData,
  });

export const enrollmentQuery = (id: number) =>
  queryOptions({
    queryKey: energyHubKeys.enrollment(id),
    queryFn: () =>
      api.get('/api/v1/oadr/enrollment/{id}', {
        path: { id },
        handledCodes: [ErrorCode.EnrollmentMissing],
        silent: true,
      }),
    retry: false,
  });

export const saveEnrollment = (body: EnrollmentBody) =>
  api.post('/api/v1/oadr/enrollment', {
    body,
    handledCodes: [ErrorCode.AccountBound],
  });

export const addDevices = (id: number, devices: EnrollmentDevice[]) =>
  api.post('/api/v1/oadr/enrollment/{id}/devices', {
    path: { id },
    body: { devices },
  });

export const removeDevice = (id: number, sn: string) =>
  api.post('/api/v1/oadr/enrollment/{id}/devices/{sn}/remove', {
    path: { id, sn },
  });

export const enrollmentAction = (id: number, action: EnrollmentAction, reason?: string) =>
  action === 'quit'
    ? api.post('/api/v1/oadr/enrollment/{id}/unenroll', { path: { id } })
    : api.post('/api/v1/oadr/enrollment/{id}/action', {
        path: { id },
        body: reason ? { action, reason } : { action },
      });

// ---- choices for the enroll form ------------------------------------------------------------

/** Programmes: active ones, or (`all`, the utility) every one. */
export const programsQuery = (all = false) =>
  queryOptions({
    queryKey: energyHubKeys.programs(all),
    queryFn: () =>
      api.get('/api/v1/oadr/listProgram', {
        query: all ? { all: 1 } : {},
        silent: true,
      }),
    staleTime: 60_000,
  });

export const timezonesQuery = queryOptions({
  queryKey: energyHubKeys.timezones,
  queryFn: () => api.get('/api/v1/oadr/timezones', { silent: true }),
  staleTime: Infinity,
});

/** The plants of user `userId` the caller may enroll. */
export const userStationsQuery = (userId: number) =>
  queryOptions({
    queryKey: energyHubKeys.stations(userId),
    queryFn: () =>
      api.get('/api/v1/oadr/userStationList/{id}', { path: { id: userId }, silent: true }),
  });

export const stationDevicesQuery = (stationId: number) =>
  queryOptions({
    queryKey: energyHubKeys.devices(stationId),
    queryFn: () =>
      api.get('/api/v1/oadr/stationMasterDevice/{stationId}', {
        path: { stationId },
        silent: true,
      }),
  });

export const stationZoneQuery = (stationId: number) =>
  queryOptions({
    queryKey: energyHubKeys.stationZone(stationId),
    queryFn: () =>
      api.get('/api/v1/oadr/stationTimezoneId/{stationId}', { path: { stationId }, silent: true }),
  });

export const saveProgram = (body: ProgramBody) => api.post('/api/v1/oadr/program', { body });

// ---- events ---------------------------------------------------------------------------------

export const EVENT_FILTERS = {
  status: oneOf<EventStatus | ''>(['', ...EVENT_STATUSES], ''),
  programId: optionalId(),
  stationId: optionalId(),
};
export type EventQuery = ListQuery<typeof EVENT_FILTERS>;

export function eventParams(q: EventQuery): Record<string, string | number> {
  const params: Record<string, string | number> = { page: q.page, limit: q.limit };
  if (q.status) params.status = q.status;
  if (q.programId !== null) params.programId = q.programId;
  if (q.stationId !== null) params.stationId = q.stationId;
  return params;
}

/** Events change state with the clock: the list is read again every half minute. */
export const EVENT_REFRESH_MS = 30_000;

export const eventListQuery = (q: EventQuery) =>
  queryOptions({
    queryKey: energyHubKeys.events(eventParams(q)),
    queryFn: () => api.get('/api/v1/oadr/events', { query: eventParams(q), silent: true }),
    placeholderData: keepPreviousData,
    refetchInterval: EVENT_REFRESH_MS,
  });

export const eventQuery = (id: number) =>
  queryOptions({
    queryKey: energyHubKeys.event(id),
    queryFn: () => api.get('/api/v1/oadr/event/{id}', { path: { id }, silent: true }),
    refetchInterval: EVENT_REFRESH_MS,
    retry: false,
  });

export const cancelEvent = (id: number, enrollmentId?: number) =>
  api.post('/api/v1/oadr/event/{id}/cancel', {
    path: { id },
    body: enrollmentId === undefined ? {} : { enrollmentId },
  });

export const createEvent = (body: EventBody) => api.post('/api/v1/oadr/event', { body });

// ---- utility connections --------------------------------------------------------------------

export const vtnsQuery = queryOptions({
  queryKey: energyHubKeys.vtns,
  queryFn: () => api.get('/api/v1/oadr/vtns', { silent: true }),
});

export const saveVtn = (body: VtnBody) => api.post('/api/v1/oadr/vtn', { body });

export const syncVtn = (id: number) => api.post('/api/v1/oadr/vtn/{id}/sync', { path: { id } });

export const removeVtn = (id: number) => api.post('/api/v1/oadr/vtn/{id}/remove', { path: { id } });
