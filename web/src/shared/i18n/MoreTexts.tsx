import { use, type ReactNode } from 'react';
import { loadMoreTexts, moreTextsAdded } from './moreTexts';

function TextsReady() {
  // once they are in, no screen waits (no suspending render, no retry)
  if (!moreTextsAdded()) use(loadMoreTexts());
  return null;
}

/**
 * Shows its children once the English texts beyond the first screens' are in (moreTexts.ts).
 * They are siblings of the wait, not inside it: a lazy page starts loading its code at the same
 * time as the texts, and the nearest Suspense shows both or neither.
 */
export function MoreTexts({ children }: { children: ReactNode }) {
  return (
    <>
      <TextsReady />
      {children}
    </>
  );
}
