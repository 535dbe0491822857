import { use, type ReactNode } from 'react';
import { loadMoreTexts } from './moreTexts';

/** Shows its children once the English texts beyond the first screens' are in (moreTexts.ts):
 * suspends until then, like a lazy page. */
export function MoreTexts({ children }: { children: ReactNode }) {
  use(loadMoreTexts());
  return children;
}
