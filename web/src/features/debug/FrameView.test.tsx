import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { FrameView } from './FrameView';

describe('FrameView', () => {
  it('numbers the registers of a read reply from the request address, signed and unsigned', () => {
    render(
      <FrameView
        hex="01 03 04 00 64 FF FE 7B 9C"
        direction="response"
        startAddress={16}
        testId="v"
      />,
    );
    const values = screen.getAllByTestId('register-value').map((el) => Number(el.textContent));
    expect(values).toEqual([100, 65534]);
    const table = screen.getByTestId('v-registers').textContent ?? '';
    expect(table).toContain('16 (0x0010)');
    expect(table).toContain('17 (0x0011)');
    expect(table).toContain('-2');
  });

  it('shows exceptions, wrong CRCs and undecodable input', () => {
    const { unmount } = render(<FrameView hex="01 83 02 C0 F1" testId="e" />);
    expect(screen.getByTestId('e-exception').textContent).toContain('Illegal data address');
    expect(screen.getByTestId('e-crc').textContent).toContain('valid');
    unmount();
    const second = render(<FrameView hex="01 03 00 00 00 0A C5 CE" testId="c" />);
    expect(screen.getByTestId('c-crc').textContent).toContain('expected 0xCDC5');
    second.unmount();
    render(<FrameView hex="01 0" testId="x" />);
    expect(screen.getByTestId('x-error').textContent).toContain('odd number');
  });
});
