import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * A page-sized "something went wrong" (like antd's Result, whose module carries the large
 * 403/404/500 illustrations): for the shell's own failures, which must show without loading
 * more code, and for lists that failed to load.
 */
export function Problem({
  status = 'warning',
  title,
  extra,
  testId,
}: {
  status?: 'warning' | 'error';
  title: ReactNode;
  extra?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`problem problem-${status}`} role="alert" data-testid={testId}>
      <span className="problem-icon" aria-hidden>
        {status === 'error' ? <CloseCircleFilled /> : <ExclamationCircleFilled />}
      </span>
      <div className="problem-title">{title}</div>
      {extra && <div className="problem-extra">{extra}</div>}
    </div>
  );
}
