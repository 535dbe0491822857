/**
 * Whether `value` is a URL the portal can call a utility's server at: http or https with a
 * host (an IP address or a name without dots is fine: VTNs run on private networks too).
 */
export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() !== value || value.length > 256) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
