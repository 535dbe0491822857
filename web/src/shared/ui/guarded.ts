/*
 * The double-click guard on every button that submits or writes (docs/overview.md): after a
 * click the button is disabled for 3000 ms and further clicks are ignored, so a quick second
 * click cannot send the same request twice. eslint (eslint.config.js) refuses a bare antd
 * submit button, a Modal with `onOk`, a Popconfirm, or a Button whose `onClick` calls a
 * mutation, so new code gets the guard by default. `modal.confirm` dialogs need none: antd
 * ignores clicks on their OK button while its promise runs, and closes them after.
 */
// One module per primitive, so a screen loads only the antd components it uses (the login page
// needs no Modal or Popconfirm).
export { GuardedModal } from './GuardedModal';
export { GuardedPopconfirm } from './GuardedPopconfirm';
export { SubmitButton } from './SubmitButton';
export type { Guard } from './guardTypes';
