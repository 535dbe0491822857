import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { TableProps } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tableCode } from './deferredCode';
import { DeferredTable } from './DeferredTable';
import { GAP, pagerItems } from './pagerItems';

type Row = { id: number; name: string; power: number };
const ROWS: Row[] = [
  { id: 1, name: 'Roof A', power: 3600 },
  { id: 2, name: 'Roof B', power: 0 },
];

function list(onChange: TableProps<Row>['onChange'], rows: Row[] = ROWS) {
  return (
    <DeferredTable<Row>
      data-testid="list"
      rowKey="id"
      dataSource={rows}
      columns={[
        { key: 'name', dataIndex: 'name', title: 'Name', sorter: true, sortOrder: 'ascend' },
        { key: 'power', dataIndex: 'power', title: 'Power', render: (v: number) => `${v} W` },
      ]}
      locale={{ emptyText: 'Nothing yet' }}
      pagination={{ current: 2, pageSize: 2, total: 9, showTotal: (n) => `${n} rows` }}
      onChange={onChange}
    />
  );
}

describe('DeferredTable', () => {
  // another test file of the worker may have loaded it
  beforeEach(() => tableCode.forget());

  it('draws the rows in a plain table, then in the real one, in the same box', async () => {
    const { container } = render(list(vi.fn()));
    const box = screen.getByTestId('list');
    expect(container.querySelector('.dtable')).not.toBeNull();
    expect(
      within(box)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['NamePower', 'Roof A3600 W', 'Roof B0 W']);
    expect(box).toHaveTextContent('9 rows');
    await waitFor(() => expect(box.querySelector('.ant-table')).not.toBeNull());
    expect(container.querySelector('.dtable')).toBeNull();
    expect(screen.getByTestId('list')).toBe(box);
    expect(box.querySelectorAll('tr.ant-table-row')).toHaveLength(2);
  });

  it('sends a sort and a page chosen before the code came as antd does', () => {
    const onChange = vi.fn();
    render(list(onChange));
    fireEvent.click(screen.getByRole('columnheader', { name: 'Name' }));
    expect(onChange).toHaveBeenLastCalledWith(
      { current: 2, pageSize: 2 },
      {},
      expect.objectContaining({ columnKey: 'name', field: 'name', order: 'descend' }),
      expect.objectContaining({ action: 'sort' }),
    );
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(onChange).toHaveBeenLastCalledWith(
      { current: 3, pageSize: 2 },
      {},
      expect.objectContaining({ columnKey: 'name', order: 'ascend' }),
      expect.objectContaining({ action: 'paginate' }),
    );
  });

  it('shows the empty text without rows and no pager', () => {
    render(
      <DeferredTable<Row>
        data-testid="list"
        rowKey="id"
        dataSource={[]}
        columns={[{ key: 'name', dataIndex: 'name', title: 'Name' }]}
        locale={{ emptyText: 'Nothing yet' }}
        pagination={{ current: 1, pageSize: 10, total: 0 }}
      />,
    );
    expect(screen.getByTestId('list')).toHaveTextContent('Nothing yet');
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('pagerItems', () => {
  it('lists every page up to seven', () => {
    expect(pagerItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps the first, the last and two either side of the current page', () => {
    expect(pagerItems(1, 20)).toEqual([1, 2, 3, 4, 5, GAP, 20]);
    expect(pagerItems(10, 20)).toEqual([1, GAP, 8, 9, 10, 11, 12, GAP, 20]);
    expect(pagerItems(20, 20)).toEqual([1, GAP, 16, 17, 18, 19, 20]);
    expect(pagerItems(4, 20)).toEqual([1, 2, 3, 4, 5, 6, GAP, 20]);
  });
});
