import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { ConfigProvider, type TablePaginationConfig } from 'antd';
import { useContext } from 'react';
import { GAP, pagerItems } from './pagerItems';

/**
 * TableStandIn's pager, with antd's look and texts (ConfigProvider's locale): the total, the
 * previous and next page, the pages, and the page size (shown; it changes with the real one).
 */
export function PagerStandIn({
  pagination,
  small,
  onPage,
}: {
  pagination: TablePaginationConfig;
  small: boolean;
  onPage: (current: number, pageSize: number) => void;
}) {
  const texts = useContext(ConfigProvider.ConfigContext).locale?.Pagination;
  const { current = 1, pageSize = 10, total = 0, showTotal } = pagination;
  // antd's default: a size changer beyond 50 items
  const sizeChanger = pagination.showSizeChanger ?? total > 50;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const range: [number, number] = [
    (current - 1) * pageSize + 1,
    Math.min(current * pageSize, total),
  ];
  const go = (to: number) => {
    if (to !== current) onPage(to, pageSize);
  };
  return (
    <ul className={small ? 'dtable-pager dtable-pager-small' : 'dtable-pager'}>
      {showTotal && <li className="dtable-pager-total">{showTotal(total, range)}</li>}
      <li>
        <button
          type="button"
          aria-label={texts?.prev_page}
          disabled={current <= 1}
          onClick={() => go(current - 1)}
        >
          <LeftOutlined />
        </button>
      </li>
      {pagerItems(current, pages).map((p, i) =>
        p === GAP ? (
          <li key={`gap-${i}`} className="dtable-pager-gap" aria-hidden>
            •••
          </li>
        ) : (
          <li key={p}>
            <button
              type="button"
              className={p === current ? 'dtable-pager-on' : undefined}
              aria-current={p === current ? 'page' : undefined}
              onClick={() => go(p)}
            >
              {p}
            </button>
          </li>
        ),
      )}
      <li className="dtable-pager-next">
        <button
          type="button"
          aria-label={texts?.next_page}
          disabled={current >= pages}
          onClick={() => go(current + 1)}
        >
          <RightOutlined />
        </button>
      </li>
      {sizeChanger && (
        <li className="dtable-pager-size">
          <span className="select-stub">
            <span className="select-stub-value">{`${pageSize} ${texts?.items_per_page ?? ''}`}</span>
            <span className="select-stub-arrow" aria-hidden />
          </span>
        </li>
      )}
    </ul>
  );
}
