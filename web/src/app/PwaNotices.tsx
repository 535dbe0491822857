import { Button } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { pwaState } from '@/shared/pwa/state';

/**
 * The offline and new-version banners above every screen (docs/pwa.md): plain markup (styles.css,
 * `.pwa-banner`), as they sit in the first screen's code.
 */
export function PwaNotices() {
  const { t, i18n } = useTranslation();
  const { staleSince, update } = useSyncExternalStore(pwaState.subscribe, pwaState.get);
  return (
    <>
      {staleSince && (
        <div className="pwa-banner pwa-stale" role="status" data-testid="pwa-stale">
          {t('pwa.offline', { time: new Date(staleSince).toLocaleString(i18n.language) })}
        </div>
      )}
      {update && (
        <div className="pwa-banner pwa-update" role="status" data-testid="pwa-update">
          {t('pwa.update')}
          <Button size="small" type="primary" onClick={update}>
            {t('pwa.reload')}
          </Button>
        </div>
      )}
    </>
  );
}
