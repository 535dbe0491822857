import { http } from '@/shared/http';

export interface Profile {
  nickname: string;
  name: string;
  gender: number;
  mobile: string;
  email: string;
}

export const updateProfile = (id: number, body: Profile) => http.post(`/api/v1/user/${id}`, body);

export const changePassword = (id: number, body: { oldPassword: string; newPassword: string }) =>
  http.post(`/api/v1/user/${id}/pwd`, body, { handledCodes: [108] });

export function uploadAvatar(id: number, file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return http.post<string>(`/api/v1/user/${id}/avatar`, form);
}

export interface Personalized {
  tempUnit: 'C' | 'F';
}

export const personalizedQueryKey = ['user', 'personalized'] as const;
export const getPersonalized = () => http.get<Personalized>('/api/v1/user/personalized');
export const savePersonalized = (body: Personalized) =>
  http.post('/api/v1/user/personalized', body);
