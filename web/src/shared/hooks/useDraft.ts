import { useState } from 'react';

/**
 * The text of a search box: what the user types, until `applied` (the search the list runs)
 * changes from elsewhere (a reset, a link, back), which the box then shows.
 */
export function useDraft(applied: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(applied);
  const [seen, setSeen] = useState(applied);
  if (seen !== applied) {
    // adjusting state while rendering: a search applied elsewhere replaces the typed text
    setSeen(applied);
    setDraft(applied);
  }
  return [draft, setDraft];
}
