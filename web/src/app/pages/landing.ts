/**
 * Where "/" takes a user who may see plants: the fleet dashboard for more than one plant, the
 * one plant's overview, or the plant list (empty, with its "add plant") for none.
 */
export function landing(
  total: number,
  first: { id: number; type: number } | undefined,
): 'dashboard' | string {
  if (total > 1) return 'dashboard';
  if (total === 1 && first) return `/plants/overview/${first.id}/${first.type}`;
  return '/plants';
}
