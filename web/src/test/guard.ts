import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { CLICK_GUARD_MS } from '@/shared/hooks/useClickGuard';

/**
 * Waits out the double-click guard (src/shared/ui/guarded.ts): a submitting button stays
 * disabled for 3000 ms after a click, so a test that submits again must wait like a user.
 */
export async function afterGuard(button: HTMLElement): Promise<void> {
  await waitFor(() => expect(button).toBeEnabled(), { timeout: CLICK_GUARD_MS + 5000 });
}
