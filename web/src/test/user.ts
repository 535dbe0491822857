import type { CurrentUser } from '@/shared/user';

/** A signed-in user as GET /api/v1/user answers it: an owner without a company unless patched. */
export const aUser = (patch: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 7,
  account: 'someone@example.com',
  avatar: '',
  company: null,
  createAt: '2026-11-20T10:00:00.000+00:00',
  email: '',
  gender: 0,
  mobile: '',
  name: '',
  nickname: '',
  readOnly: false,
  roleName: 'owner',
  tempUnit: 'C',
  type: 'owner',
  userSrc: 'web',
  ...patch,
});
