import { useMemo, useState } from 'react';
import { buildRequest, FrameError, toHex, type FunctionCode } from '../modbus';

/** The request being built on the RTU tab: its fields and the frame they make (or why not). */
export function useRtuRequest() {
  const [slave, setSlave] = useState(1);
  const [fn, setFn] = useState<FunctionCode>(3);
  const [address, setAddress] = useState(0);
  const [count, setCount] = useState(1);
  const [values, setValues] = useState('0');

  const built = useMemo((): { frame?: string; error?: string } => {
    try {
      const list = values
        .split(/[\s,]+/)
        .filter((v) => v !== '')
        .map((v) => (/^0x/i.test(v) ? parseInt(v, 16) : Number(v)));
      return { frame: toHex(buildRequest({ slave, fn, address, count, values: list })) };
    } catch (e) {
      return { error: e instanceof FrameError ? e.reason : 'values' };
    }
  }, [slave, fn, address, count, values]);

  return {
    slave,
    setSlave,
    fn,
    setFn,
    address,
    setAddress,
    count,
    setCount,
    values,
    setValues,
    built,
    /** Reads (03, 04) ask for a count; writes carry values. */
    isRead: fn === 3 || fn === 4,
  };
}

export type RtuRequest = ReturnType<typeof useRtuRequest>;
