import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ErrorCode, http, type Page } from '@/shared/http';
import { oneOf, optionalId, text, type ListQuery } from '@/shared/list/params';
import {
  ENROLLMENT_STATUSES,
  EVENT_STATUSES,
  type DrEvent,
  type DrEventDetail,
  type Enrollment,
  type EnrollmentBody,
  type EnrollmentDevice,
  type EnrollmentStatus,
  type EventBody,
  type EventStatus,
  type MasterDevice,
  type Program,
  type ProgramBody,
  type TimeZoneOption,
  type UserStation,
  type Vtn,
  type VtnBody,
} from './types';

const BASE = '/api/v1/oadr';

/** Every key of the energy hub under one root, so a change refreshes all its views. */
export const hubKeys = {
  all: ['energyhub'] as const,
  enrollments: (params: Readonly<Record<string, string | number>>) =>
    ['energyhub', 'enrollments', params] as const,
  enrollment: (id: number) => ['energyhub', 'enrollment', id] as const,
  programs: (all: boolean) => ['energyhub', 'programs', all] as const,
  timezones: ['energyhub', 'timezones'] as const,
  stations: (userId: number) => ['energyhub', 'stations', userId] as const,
  devices: (stationId: number) => ['energyhub', 'devices', stationId] as const,
  stationZone: (stationId: number) => ['energyhub', 'stationZone', stationId] as const,
  events: (params: Readonly<Record<string, string | number>>) =>
    ['energyhub', 'events', params] as const,
  event: (id: number) => ['energyhub', 'event', id] as const,
  vtns: ['energyhub', 'vtns'] as const,
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
    queryKey: hubKeys.enrollments(enrollmentParams(q)),
    queryFn: () =>
      http.get<Page<Enrollment>>(`${BASE}/enrollments`, {
        params: enrollmentParams(q),
        silent: true,
      }),
    placeholderData: keepPreviousData,
  });

export const enrollmentQuery = (id: number) =>
  queryOptions({
    queryKey: hubKeys.enrollment(id),
    queryFn: () =>
      http.get<Enrollment>(`${BASE}/enrollment/${id}`, {
        handledCodes: [ErrorCode.EnrollmentMissing],
        silent: true,
      }),
    retry: false,
  });

export const saveEnrollment = (body: EnrollmentBody) =>
  http.post<Enrollment>(`${BASE}/enrollment`, body, {
    handledCodes: [ErrorCode.AccountBound],
  });

export const addDevices = (id: number, devices: EnrollmentDevice[]) =>
  http.post<Enrollment>(`${BASE}/enrollment/${id}/devices`, { devices });

export const removeDevice = (id: number, sn: string) =>
  http.post<Enrollment>(`${BASE}/enrollment/${id}/devices/${encodeURIComponent(sn)}/remove`);

export const enrollmentAction = (id: number, action: string, reason?: string) =>
  action === 'quit'
    ? http.post<Enrollment>(`${BASE}/enrollment/${id}/unenroll`)
    : http.post<Enrollment>(
        `${BASE}/enrollment/${id}/action`,
        reason ? { action, reason } : { action },
      );

// ---- choices for the enroll form ------------------------------------------------------------

/** Programmes: active ones, or (`all`, the utility) every one. */
export const programsQuery = (all = false) =>
  queryOptions({
    queryKey: hubKeys.programs(all),
    queryFn: () =>
      http.get<Program[]>(`${BASE}/listProgram`, { params: all ? { all: 1 } : {}, silent: true }),
    staleTime: 60_000,
  });

export const timezonesQuery = queryOptions({
  queryKey: hubKeys.timezones,
  queryFn: () => http.get<TimeZoneOption[]>(`${BASE}/timezones`, { silent: true }),
  staleTime: Infinity,
});

/** The plants of user `userId` the caller may enroll. */
export const userStationsQuery = (userId: number) =>
  queryOptions({
    queryKey: hubKeys.stations(userId),
    queryFn: () => http.get<UserStation[]>(`${BASE}/userStationList/${userId}`, { silent: true }),
  });

export const stationDevicesQuery = (stationId: number) =>
  queryOptions({
    queryKey: hubKeys.devices(stationId),
    queryFn: () =>
      http.get<MasterDevice[]>(`${BASE}/stationMasterDevice/${stationId}`, { silent: true }),
  });

export const stationZoneQuery = (stationId: number) =>
  queryOptions({
    queryKey: hubKeys.stationZone(stationId),
    queryFn: () => http.get<string>(`${BASE}/stationTimezoneId/${stationId}`, { silent: true }),
  });

export const saveProgram = (body: ProgramBody) => http.post<Program>(`${BASE}/program`, body);

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
    queryKey: hubKeys.events(eventParams(q)),
    queryFn: () =>
      http.get<Page<DrEvent>>(`${BASE}/events`, { params: eventParams(q), silent: true }),
    placeholderData: keepPreviousData,
    refetchInterval: EVENT_REFRESH_MS,
  });

export const eventQuery = (id: number) =>
  queryOptions({
    queryKey: hubKeys.event(id),
    queryFn: () => http.get<DrEventDetail>(`${BASE}/event/${id}`, { silent: true }),
    refetchInterval: EVENT_REFRESH_MS,
    retry: false,
  });

export const cancelEvent = (id: number, enrollmentId?: number) =>
  http.post<DrEvent>(
    `${BASE}/event/${id}/cancel`,
    enrollmentId === undefined ? {} : { enrollmentId },
  );

export const createEvent = (body: EventBody) => http.post<DrEvent>(`${BASE}/event`, body);

// ---- utility connections --------------------------------------------------------------------

export const vtnsQuery = queryOptions({
  queryKey: hubKeys.vtns,
  queryFn: () => http.get<Vtn[]>(`${BASE}/vtns`, { silent: true }),
});

export const saveVtn = (body: VtnBody) => http.post<Vtn>(`${BASE}/vtn`, body);

export const syncVtn = (id: number) => http.post<unknown>(`${BASE}/vtn/${id}/sync`);

export const removeVtn = (id: number) => http.post<unknown>(`${BASE}/vtn/${id}/remove`);
