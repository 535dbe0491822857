/** What every guarded button takes besides antd's props. */
export interface Guard {
  /** How long the button stays disabled after a click. */
  guardMs?: number;
}
