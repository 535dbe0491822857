import { render, screen } from '@testing-library/react';
import { Button, ConfigProvider } from 'antd';
import { expect, it } from 'vitest';

it("keeps antd's component style sheets out of the test document (setup.ts)", () => {
  const before = new Set(document.querySelectorAll('style'));
  // a theme of its own, so that antd makes this button's styles anew whatever ran before
  render(
    <ConfigProvider theme={{ token: { colorPrimary: '#13579b' } }}>
      <Button type="primary">Save</Button>
    </ConfigProvider>,
  );
  expect(screen.getByRole('button', { name: 'Save' })).toHaveClass('ant-btn');
  // what antd adds is the theme as CSS variables: every declaration a custom property
  const css = [...document.querySelectorAll('style')]
    .filter((s) => !before.has(s))
    .map((s) => s.textContent ?? '')
    .join('\n');
  const declarations = [...css.matchAll(/\{([^{}]*)\}/g)].flatMap((m) =>
    (m[1] ?? '').split(';').filter((d) => d.trim()),
  );
  expect(declarations.length).toBeGreaterThan(0);
  expect(declarations.filter((d) => !d.trim().startsWith('--'))).toEqual([]);
});
