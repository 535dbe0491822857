import { render, screen } from '@testing-library/react';
import { Button } from 'antd';
import { expect, it } from 'vitest';

it("keeps antd's component style sheets out of the test document (setup.ts)", () => {
  render(<Button>Save</Button>);
  expect(screen.getByRole('button', { name: 'Save' })).toHaveClass('ant-btn');
  // what stays is antd's theme as CSS variables: every declaration a custom property
  const css = [...document.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n');
  const declarations = [...css.matchAll(/\{([^{}]*)\}/g)].flatMap((m) =>
    (m[1] ?? '').split(';').filter((d) => d.trim()),
  );
  expect(declarations.length).toBeGreaterThan(0);
  expect(declarations.filter((d) => !d.trim().startsWith('--'))).toEqual([]);
});
