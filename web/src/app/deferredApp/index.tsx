import AppContext from 'antd/es/app/context';
import useStyle from 'antd/es/app/style';
import useApp from 'antd/es/app/useApp';
import { useComponentConfig } from 'antd/es/config-provider/context';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { deferredApi, onFirstUse } from './api';

const Holders = lazy(() => import('./holders'));

/**
 * antd's `App` as the app uses it (no props): the `ant-app` element with its styles and the
 * context `App.useApp()` reads, but with message, notification and modal holders that load
 * when first used: their code (22 kB gzip) is out of every first screen (issue 32).
 * vite.config.ts gives this to `import { App } from 'antd'`.
 */
function DeferredApp({ children }: { children?: ReactNode }) {
  const { getPrefixCls, className, style } = useComponentConfig('app');
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useStyle(prefixCls);
  const [used, setUsed] = useState(false);
  useEffect(() => onFirstUse(() => setUsed(true)), []);
  return (
    <AppContext.Provider value={deferredApi}>
      <div
        className={[className, hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}
        style={style}
      >
        {used && (
          <Suspense fallback={null}>
            <Holders />
          </Suspense>
        )}
        {children}
      </div>
    </AppContext.Provider>
  );
}

const App = Object.assign(DeferredApp, { useApp });
export default App;
