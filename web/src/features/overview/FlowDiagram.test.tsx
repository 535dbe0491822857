import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '@/shared/i18n';
import type { FlowModel } from './flow';
import { FlowDiagram } from './FlowDiagram';

const model = (grid: 'toHub' | 'fromHub', battery: 'toHub' | 'fromHub'): FlowModel => ({
  links: [
    { node: 'pv', power: 3000, direction: 'toHub' },
    { node: 'battery', power: 800, direction: battery },
    { node: 'grid', power: 1200, direction: grid },
    { node: 'load', power: 1000, direction: 'fromHub' },
  ],
  soc: 64,
  time: '2026-05-04 12:00:00',
  stale: false,
});

const head = (node: string) => {
  const line = screen.getByTestId(`flow-line-${node}`);
  return { end: line.getAttribute('marker-end'), start: line.getAttribute('marker-start') };
};

describe('FlowDiagram', () => {
  it('says and points which way the grid and the battery go, without the animation', async () => {
    await changeLanguage('en');
    const view = render(<FlowDiagram model={model('fromHub', 'fromHub')} />);
    expect(screen.getByTestId('flow-grid-direction')).toHaveTextContent('Export');
    expect(screen.getByTestId('flow-battery-direction')).toHaveTextContent('Charging');
    // the arrowhead sits where energy goes: out of the hub at the node's end of the line
    expect(head('grid').start).toMatch(/^url\(#flow-arrow-.+-grid\)$/);
    expect(head('grid').end).toBeNull();
    expect(head('pv').end).toMatch(/-pv\)$/);
    // the arrow's shape is in the document, in the node's colour
    const id = /#(.+)\)/.exec(head('grid').start ?? '')?.[1] ?? '';
    expect(document.getElementById(id)?.tagName.toLowerCase()).toBe('marker');

    view.rerender(<FlowDiagram model={model('toHub', 'toHub')} />);
    expect(screen.getByTestId('flow-grid-direction')).toHaveTextContent('Import');
    expect(screen.getByTestId('flow-battery-direction')).toHaveTextContent('Discharging');
    expect(head('grid').end).toMatch(/-grid\)$/);
    // one-way lines need no word
    expect(screen.queryByTestId('flow-pv-direction')).toBeNull();
  });

  it('draws neither words nor arrowheads on a stale flow', async () => {
    await changeLanguage('zh');
    const stale = model('toHub', 'fromHub');
    render(
      <FlowDiagram
        model={{
          ...stale,
          stale: true,
          links: stale.links.map((l) => ({ ...l, direction: 'idle' })),
        }}
      />,
    );
    expect(screen.queryByTestId('flow-grid-direction')).toBeNull();
    expect(head('grid')).toEqual({ end: null, start: null });
    await changeLanguage('en');
  });

  it('translates the directions', async () => {
    await changeLanguage('es');
    render(<FlowDiagram model={model('fromHub', 'toHub')} />);
    expect(screen.getByTestId('flow-grid-direction')).toHaveTextContent('Exportación');
    expect(screen.getByTestId('flow-battery-direction')).toHaveTextContent('Descargando');
    await changeLanguage('en');
  });
});
