import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@/shared/user';
import { fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import { aUser } from '@/test/user';
import type { MenuNode } from '../menu';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { RouteGate } from './RouteGate';
import { SideMenu } from './SideMenu';

function Counter({ name }: { name: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      {name} {n}
    </button>
  );
}

function Shell() {
  const navigate = useNavigate();
  return (
    <div>
      <button type="button" onClick={() => void navigate('/kept')}>
        go kept
      </button>
      <button type="button" onClick={() => void navigate('/plain')}>
        go plain
      </button>
      <KeepAliveOutlet keepAlive={(p) => p === '/kept'} />
    </div>
  );
}

describe('KeepAliveOutlet', () => {
  it('keeps a keep-alive page mounted and hidden, with its state, while another page shows', async () => {
    // the layout route and its pages, as the app's router nests them
    await renderScreen(
      <Routes>
        <Route element={<Shell />}>
          <Route path="/kept" element={<Counter name="kept" />} />
          <Route path="/plain" element={<Counter name="plain" />} />
        </Route>
      </Routes>,
      { route: '/kept', path: '*' },
    );
    const go = (where: string) => fireEvent.click(screen.getByRole('button', { name: where }));
    fireEvent.click(await screen.findByRole('button', { name: 'kept 0' }));
    fireEvent.click(screen.getByRole('button', { name: 'kept 1' }));
    expect(screen.getByRole('button', { name: 'kept 2' })).toBeVisible();

    go('go plain');
    fireEvent.click(await screen.findByRole('button', { name: 'plain 0' }));
    expect(screen.getByRole('button', { name: 'plain 1' })).toBeVisible();
    // hidden, so out of the accessibility tree: found by its text
    expect(screen.queryByText('kept 2')).not.toBeVisible();

    go('go kept');
    await waitFor(() => expect(screen.getByText('kept 2')).toBeVisible());
    expect(screen.queryByText(/^plain \d/)).toBeNull();

    go('go plain');
    expect(await screen.findByRole('button', { name: 'plain 0' })).toBeVisible();
  });
});

describe('SideMenu', () => {
  const menu: MenuNode[] = [
    { key: '/', labelKey: 'menu.home' },
    {
      key: '/a',
      labelKey: 'Group A',
      children: [{ key: '/a/one', labelKey: 'A one' }],
    },
    {
      key: '/b',
      labelKey: 'Group B',
      children: [{ key: '/b/one', labelKey: 'B one' }],
    },
    {
      key: '/enterprise',
      labelKey: 'Company',
      children: [{ key: '/enterprise/user', labelKey: 'Staff' }],
    },
  ];

  function renderMenu(
    selectedKey: string | undefined,
    at = '/',
    type: CurrentUser['type'] = 'company',
  ) {
    // the menu asks the server nothing: any request fails the test
    fakeHttp();
    return renderScreen(<SideMenu menu={menu} selectedKey={selectedKey} collapsed={false} dark />, {
      route: at,
      path: '*',
      user: aUser({ id: 1, type }),
    });
  }

  const isOpen = (label: string) =>
    screen
      .getByText(label)
      .closest('.ant-menu-submenu')
      ?.classList.contains('ant-menu-submenu-open');

  it('opens the group of the selected item and keeps one group open at a time', async () => {
    await renderMenu('/a/one');
    expect(isOpen('Group A')).toBe(true);
    expect(isOpen('Group B')).toBe(false);
    fireEvent.click(screen.getByText('Group B'));
    expect(isOpen('Group B')).toBe(true);
    expect(isOpen('Group A')).toBe(false);
    fireEvent.click(screen.getByText('Group B'));
    expect(isOpen('Group B')).toBe(false);
  });

  it('keeps an internal administrator on the company they are looking at', async () => {
    const view = await renderMenu('/enterprise/roles', '/enterprise/roles?companyId=4', 'internal');
    fireEvent.click(screen.getByText('Company'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Staff' }));
    await waitFor(() => expect(view.location()).toBe('/enterprise/user?companyId=4'));
    fireEvent.click(screen.getByText('Group A'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'A one' }));
    await waitFor(() => expect(view.location()).toBe('/a/one'));
  });

  it('marks the selected item and names items for tests and assistive tools', async () => {
    await renderMenu('/');
    const home = screen.getByRole('menuitem', { name: 'Home' });
    expect(home).toHaveClass('ant-menu-item-selected');
    expect(home).toHaveAttribute('data-menu-key', '/');
  });
});

describe('RouteGate', () => {
  const Page = () => <p>secret page</p>;

  const renderGate = (routes: string[]) => {
    fakeHttp();
    return renderScreen(
      <RouteGate
        entry={{ path: '/x', permission: 'gateway.view', labelKey: 'x', element: Page }}
      />,
      {
        route: '/x',
        path: '*',
        permissions: routes.map((permission) => ({ permission, type: 0 })),
      },
    );
  };

  it('shows the page when the permission tree holds its key', async () => {
    await renderGate(['gateway.view']);
    expect(await screen.findByText('secret page')).toBeInTheDocument();
  });

  it('shows the no-access page with a way back to sign-in otherwise', async () => {
    await renderGate(['inverter.view']);
    expect(await screen.findByText('No access')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to sign in' })).toBeInTheDocument();
    expect(screen.queryByText('secret page')).toBeNull();
  });
});
