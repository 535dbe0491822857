/** The tag colour of an exchange's status: answered, still open, or ended without a reply. */
export function statusColor(status: string): string {
  switch (status) {
    case 'succeeded':
      return 'success';
    case 'failed':
    case 'timed_out':
    case 'refused':
      return 'error';
    default:
      return 'processing';
  }
}
