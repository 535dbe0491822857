import { deferredPart } from './deferredPart';

// The antd components that first screens show stand-ins for, each loaded as a chunk of its own
// on the first render of its Deferred… component (issue 32).

/** antd's Table (DeferredTable.tsx). */
export const tableCode = deferredPart(() => import('./tablePart').then((m) => m.Table));

/** antd's Input.Search (DeferredSearch.tsx). */
export const searchCode = deferredPart(() => import('./searchPart').then((m) => m.Search));

/** antd's Segmented (DeferredSegmented.tsx). */
export const segmentedCode = deferredPart(() => import('./segmentedPart').then((m) => m.Segmented));

/** antd's Tag (DeferredTag.tsx). */
export const tagCode = deferredPart(() => import('./tagPart').then((m) => m.Tag));
