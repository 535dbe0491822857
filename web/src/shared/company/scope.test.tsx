import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@/shared/user';
import { envelope, fakeHttp, networkError } from '@/test/http';
import { renderScreen, renderScreenHook } from '@/test/render';
import { aUser } from '@/test/user';
import { askedCompany, ScopeGate, scopedPath, useScope, withCompany } from '.';

const user = (type: string, company: { id: number; name: string } | null) =>
  aUser({
    type,
    roleName: type === 'internal' ? 'internal-admin' : 'company-staff',
    company: company && { ...company, logoUrl: '', iconUrl: '', themeColor: '' },
  });
const ADMIN = user('internal', null);
const STAFF = user('company', { id: 5, name: 'Sunrise' });

const answerUser = (me: CurrentUser) => fakeHttp({ 'GET /api/v1/user': () => envelope(me) });

const scopeAt = async (route: string) => {
  const { result, unmount } = await renderScreenHook(() => useScope(), { route });
  await waitFor(() => expect(result.current.ready).toBe(true));
  unmount();
  return result.current;
};

describe('the company scope', () => {
  it('reads a company id from the URL only when it is a positive whole number', () => {
    expect(askedCompany('12')).toBe(12);
    expect(askedCompany(null)).toBeUndefined();
    expect(askedCompany('0')).toBeUndefined();
    expect(askedCompany('1.5')).toBeUndefined();
    expect(askedCompany('abc')).toBeUndefined();
  });

  it('adds companyId to a request and to a link only when the scope names a company', () => {
    expect(withCompany(undefined, { page: 1 })).toEqual({ page: 1 });
    expect(withCompany(3, { page: 1 })).toEqual({ page: 1, companyId: 3 });
    expect(withCompany(3)).toEqual({ companyId: 3 });
    expect(withCompany(undefined)).toEqual({});
    expect(scopedPath('/customer/list', undefined)).toBe('/customer/list');
    expect(scopedPath('/customer/list', 3)).toBe('/customer/list?companyId=3');
    expect(scopedPath('/customer/list?typeId=2', 3)).toBe('/customer/list?typeId=2&companyId=3');
  });

  it('is the company an internal administrator names in the URL', async () => {
    answerUser(ADMIN);
    expect(await scopeAt('/customer/list?companyId=4')).toEqual({
      scope: 4,
      ready: true,
      none: false,
    });
  });

  it('is none for an internal administrator who names no company', async () => {
    answerUser(ADMIN);
    expect(await scopeAt('/customer/list')).toEqual({ scope: undefined, ready: true, none: true });
    expect(await scopeAt('/customer/list?companyId=abc')).toMatchObject({ none: true });
  });

  it("is the user's own company for company staff, whatever the URL says", async () => {
    answerUser(STAFF);
    expect(await scopeAt('/customer/list')).toEqual({ scope: undefined, ready: true, none: false });
    expect(await scopeAt('/customer/list?companyId=4')).toEqual({
      scope: undefined,
      ready: true,
      none: false,
    });
  });

  it('shows the screen with its scope, or the no-company notice', async () => {
    answerUser(ADMIN);
    const gate = <ScopeGate>{(scope) => <p>company {scope}</p>}</ScopeGate>;
    const { unmount } = await renderScreen(gate, { route: '/customer/list' });
    expect(await screen.findByTestId('no-company')).toHaveTextContent('belongs to no company');
    unmount();
    await renderScreen(gate, { route: '/customer/list?companyId=4' });
    expect(await screen.findByText('company 4')).toBeTruthy();
  });

  it('says when the account cannot be loaded', async () => {
    fakeHttp({ 'GET /api/v1/user': () => networkError() });
    await renderScreen(
      <ScopeGate failedTitle="The customers could not be loaded">{() => null}</ScopeGate>,
      { route: '/customer/list' },
    );
    expect(await screen.findByTestId('scope-error')).toHaveTextContent(
      'The customers could not be loaded',
    );
  });
});
