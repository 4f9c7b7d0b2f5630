import { useState } from 'react';
import i18n from '../i18n';
import { saveFile } from './download';
import { errorText } from './error-text';
import { notifyError, notifySuccess, notifyWarning } from './notify';

/** A file the server made (a CSV), as the API client hands it over. */
export interface ExportedFile {
  blob: Blob;
  filename: string;
}

export interface FileExportOptions {
  /** Asks the server for the file. */
  download: () => Promise<ExportedFile>;
  /** True when the screen already knows there is nothing to export: a warning, no request. */
  isEmpty?: () => boolean;
  /** The toast once the file is handed to the browser. */
  doneText: () => string;
  /** The failure toast when the error has no code the console words (lib/error-text.ts). */
  failedText: () => string;
}

/**
 * A screen's "Export CSV": warns instead of asking when there is nothing to export, hands the
 * server's file to the browser's download, and says how it went. `exporting` is true meanwhile.
 */
export function useFileExport(options: FileExportOptions): {
  exporting: boolean;
  start: () => Promise<void>;
} {
  const [exporting, setExporting] = useState(false);
  async function start() {
    if (options.isEmpty?.()) {
      notifyWarning(i18n.t('common:noDataToExport'));
      return;
    }
    setExporting(true);
    try {
      const file = await options.download();
      saveFile(file.blob, file.filename);
      notifySuccess(options.doneText());
    } catch (error) {
      notifyError(errorText(error, options.failedText()));
    } finally {
      setExporting(false);
    }
  }
  return { exporting, start };
}

/**
 * What an export asks the server for its reader (csv-reader.ts in the contract): the file in the
 * console's language, times at this computer's offset from UTC, named in the file's headers.
 */
export function csvReaderQuery(): { lang: 'ru' | 'en'; utc_offset: number } {
  // getTimezoneOffset is minutes west of UTC (Moscow -180); the server takes minutes east.
  return {
    lang: i18n.language === 'en' ? 'en' : 'ru',
    utc_offset: -new Date().getTimezoneOffset() || 0,
  };
}
