import { lazy, Suspense, type ComponentProps } from 'react';

export const SettingsPage = lazy(() => import('./SettingsPage'));

// Lazy too: the app shell imports this index for the route, and the buttons' command progress
// (Steps, Alert, Modal) belongs to the inverter page, not to every first screen. With a
// boundary of its own, so the page around it does not wait for it.
const LazyPowerButtons = lazy(() => import('./PowerButtons'));

export function PowerButtons(props: ComponentProps<typeof LazyPowerButtons>) {
  return (
    <Suspense fallback={null}>
      <LazyPowerButtons {...props} />
    </Suspense>
  );
}
