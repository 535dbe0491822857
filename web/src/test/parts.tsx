import { App as AntdApp } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { ErrorCode } from '@/shared/http';
import { forwardHttpUi } from './http';

/** The http client's toasts as the app shows them (App.tsx), so a test can read them. */
export function HttpUiBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    forwardHttpUi({
      toast: (text, code) =>
        code === ErrorCode.FirmwareCurrent ? message.warning(text) : message.error(text),
      networkError: () => Promise.resolve(false),
      signedOut: () => undefined,
    });
    return () => forwardHttpUi(null);
  }, [message]);
  return null;
}

/** Tells where the router is, after every navigation. */
export function LocationProbe({ onChange }: { onChange: (at: string) => void }) {
  const { pathname, search } = useLocation();
  useEffect(() => {
    onChange(`${pathname}${search}`);
  }, [onChange, pathname, search]);
  return null;
}
