import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { userQuery } from '@/shared/user';
import type { MenuNode } from '../menu';
import { KeepAliveOutlet } from './KeepAliveOutlet';
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
    const router = createMemoryRouter(
      [
        {
          element: <Shell />,
          children: [
            { path: '/kept', element: <Counter name="kept" /> },
            { path: '/plain', element: <Counter name="plain" /> },
          ],
        },
      ],
      { initialEntries: ['/kept'] },
    );
    render(<RouterProvider router={router} />);
    fireEvent.click(await screen.findByText('kept 0'));
    fireEvent.click(screen.getByText('kept 1'));
    expect(screen.getByText('kept 2')).toBeVisible();

    await act(() => router.navigate('/plain'));
    fireEvent.click(screen.getByText('plain 0'));
    expect(screen.getByText('plain 1')).toBeVisible();
    expect(screen.queryByText('kept 2')).not.toBeVisible();

    await act(() => router.navigate('/kept'));
    expect(screen.getByText('kept 2')).toBeVisible();
    expect(screen.queryByText(/^plain \d/)).toBeNull();

    await act(() => router.navigate('/plain'));
    expect(screen.getByText('plain 0')).toBeVisible();
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

  function renderMenu(selectedKey: string | undefined, at = '/', type = 'company') {
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: <SideMenu menu={menu} selectedKey={selectedKey} collapsed={false} dark />,
        },
      ],
      { initialEntries: [at] },
    );
    const client = new QueryClient();
    client.setQueryData(userQuery.queryKey, { id: 1, type } as never);
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  }

  const isOpen = (label: string) =>
    screen
      .getByText(label)
      .closest('.ant-menu-submenu')
      ?.classList.contains('ant-menu-submenu-open');

  it('opens the group of the selected item and keeps one group open at a time', () => {
    renderMenu('/a/one');
    expect(isOpen('Group A')).toBe(true);
    expect(isOpen('Group B')).toBe(false);
    fireEvent.click(screen.getByText('Group B'));
    expect(isOpen('Group B')).toBe(true);
    expect(isOpen('Group A')).toBe(false);
    fireEvent.click(screen.getByText('Group B'));
    expect(isOpen('Group B')).toBe(false);
  });

  it('keeps an internal administrator on the company they are looking at', () => {
    const router = renderMenu('/enterprise/roles', '/enterprise/roles?companyId=4', 'internal');
    fireEvent.click(screen.getByText('Company'));
    fireEvent.click(screen.getByText('Staff'));
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/enterprise/user?companyId=4',
    );
    fireEvent.click(screen.getByText('Group A'));
    fireEvent.click(screen.getByText('A one'));
    expect(router.state.location.search).toBe('');
  });

  it('marks the selected item and names items for tests and assistive tools', () => {
    renderMenu('/');
    const home = screen.getByText('Home').closest('li');
    expect(home).toHaveClass('ant-menu-item-selected');
    expect(home).toHaveAttribute('data-menu-key', '/');
  });
});

describe('RouteGate', () => {
  const Page = () => <p>secret page</p>;

  async function renderGate(routes: string[]) {
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const { collectPermissions } = await import('@/shared/permissions');
    const { RouteGate } = await import('./RouteGate');
    const client = new QueryClient();
    client.setQueryData(
      ['permissions', 'en'],
      collectPermissions(
        routes.map((permission, id) => ({ id, name: permission, permission, type: 0 })),
      ),
    );
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <RouteGate
              entry={{ path: '/x', permission: 'gateway.view', labelKey: 'x', element: Page }}
            />
          ),
        },
      ],
      { initialEntries: ['/x'] },
    );
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  }

  it('shows the page when the permission tree holds its key', async () => {
    await renderGate(['gateway.view']);
    expect(await screen.findByText('secret page')).toBeInTheDocument();
  });

  it('shows the no-access page with a way back to sign-in otherwise', async () => {
    await renderGate(['inverter.view']);
    expect(await screen.findByTestId('forbidden')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to sign in' })).toBeInTheDocument();
    expect(screen.queryByText('secret page')).toBeNull();
  });
});
