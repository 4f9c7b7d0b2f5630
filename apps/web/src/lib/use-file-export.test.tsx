import { act, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { useFileExport } from './use-file-export';
import { renderWithProviders } from '../test/render';

/** The hook inside the app's providers, so its toasts show. */
function exporter(options: Parameters<typeof useFileExport>[0]) {
  let current: ReturnType<typeof useFileExport> | undefined;
  function Probe() {
    current = useFileExport(options);
    return <span>{current.exporting ? 'exporting' : 'idle'}</span>;
  }
  renderWithProviders(<Probe />);
  return () => current!;
}

describe('a screen’s CSV export', () => {
  beforeAll(() => i18n.changeLanguage('en'));
  afterEach(() => vi.restoreAllMocks());

  it('hands the server’s file to the browser and says so', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:file');
    URL.revokeObjectURL = vi.fn();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const download = vi.fn(async () => ({ blob: new Blob(['a,b']), filename: 'x.csv' }));
    const hook = exporter({ download, doneText: () => 'Exported 3', failedText: () => 'Failed' });
    await act(() => hook().start());
    expect(download).toHaveBeenCalledOnce();
    expect(saved).toHaveBeenCalled();
    expect(await screen.findByText('Exported 3')).toBeInTheDocument();
    expect(screen.getByText('idle')).toBeInTheDocument();
  });

  it('warns instead of asking when the screen knows there is nothing', async () => {
    const download = vi.fn(async () => ({ blob: new Blob([]), filename: 'x.csv' }));
    const hook = exporter({
      download,
      isEmpty: () => true,
      doneText: () => 'Exported',
      failedText: () => 'Failed',
    });
    await act(() => hook().start());
    expect(download).not.toHaveBeenCalled();
    expect(await screen.findByText('There is no data to export')).toBeInTheDocument();
  });

  it('words a refusal by its code', async () => {
    const refused = exporter({
      download: () => Promise.reject(new ApiError(429, { error: 'rate_limited' })),
      doneText: () => 'Exported',
      failedText: () => 'Export failed',
    });
    await act(() => refused().start());
    expect(await screen.findByText(/Too many/i)).toBeInTheDocument();
  });

  it('words a failure without a code with the screen’s own text', async () => {
    const broken = exporter({
      download: () => Promise.reject(new Error('network')),
      doneText: () => 'Exported',
      failedText: () => 'Export failed',
    });
    await act(() => broken().start());
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
  });
});
