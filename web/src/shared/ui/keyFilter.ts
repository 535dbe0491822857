/**
 * The global key filter (docs/overview.md): special characters are blocked in normal text
 * fields ('Do not enter special characters'), spaces in password fields ('Do not enter spaces').
 * Inputs opt out with data-keyfilter="off".
 */
export const SPECIAL_CHARACTERS = new Set(
  '`~!#$%^&*()=<>?:"{}|,/;\'\\[]·！￥…（）—《》？：“”【】、；‘’，。'.split(''),
);

export type Blocked = 'special' | 'space' | null;

const TEXT_TYPES = new Set(['text', 'search', '']);

export function isPasswordField(el: HTMLInputElement): boolean {
  return (
    el.type === 'password' ||
    el.dataset.keyfilter === 'password' ||
    el.closest('.ant-input-password') !== null
  );
}

/** What typing `data` into `target` would break, if anything. */
export function blockedInput(target: EventTarget | null, data: string | null): Blocked {
  if (!data || !(target instanceof HTMLInputElement)) return null;
  if (target.dataset.keyfilter === 'off' || target.readOnly) return null;
  if (isPasswordField(target)) return /\s/.test(data) ? 'space' : null;
  if (!TEXT_TYPES.has(target.type)) return null;
  if (target.closest('.ant-picker, .ant-select, .ant-input-number')) return null;
  return [...data].some((c) => SPECIAL_CHARACTERS.has(c)) ? 'special' : null;
}

/** Installs the filter on `root`; returns the function removing it. */
export function installKeyFilter(
  root: Document | HTMLElement,
  warn: (blocked: Exclude<Blocked, null>) => void,
): () => void {
  const onBeforeInput = (event: Event) => {
    const e = event as InputEvent;
    if (e.inputType && !e.inputType.startsWith('insert')) return;
    const blocked = blockedInput(e.target, e.data);
    if (blocked) {
      e.preventDefault();
      warn(blocked);
    }
  };
  const onKeyDown = (event: Event) => {
    const e = event as KeyboardEvent;
    if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
    const blocked = blockedInput(e.target, e.key);
    if (blocked) {
      e.preventDefault();
      warn(blocked);
    }
  };
  root.addEventListener('beforeinput', onBeforeInput, true);
  root.addEventListener('keydown', onKeyDown, true);
  return () => {
    root.removeEventListener('beforeinput', onBeforeInput, true);
    root.removeEventListener('keydown', onKeyDown, true);
  };
}
