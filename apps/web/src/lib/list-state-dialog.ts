import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isUuid, useParamWriter } from './list-state';

/** What a dialog kept in the URL gives its screen: the open record's id, open and close. */
export interface UrlDialog {
  /** The id in the URL, when it is a well-formed id; otherwise the dialog is closed. */
  id: string | undefined;
  open(id: string): void;
  close(): void;
}

/**
 * A dialog over a screen that shows one record (a session's detail, say), its id kept in the URL
 * (`?session=<id>`) like the screen's other settings: a reload and a shared link open it again.
 * Opening adds a history entry, so the browser's Back closes the dialog rather than leave the page;
 * closing goes back to that entry's predecessor when this visit opened it, else (a link, a reload)
 * removes the parameter in place.
 */
export function useUrlDialog(name: string): UrlDialog {
  const { searchParams, write } = useParamWriter();
  const location = useLocation();
  const navigate = useNavigate();
  const raw = searchParams.get(name);
  const id = raw !== null && isUuid(raw) ? raw : undefined;
  // The entry this visit pushed on opening is marked, so closing knows Back returns to the screen.
  const marker = (location.state as { dialog?: string } | null)?.dialog;
  const openedHere = id !== undefined && marker === name;
  const open = useCallback(
    (next: string) => write({ [name]: next }, { state: { dialog: name } }),
    [write, name],
  );
  const close = useCallback(() => {
    if (openedHere) void navigate(-1);
    else write({ [name]: null }, { replace: true });
  }, [openedHere, navigate, write, name]);
  return { id, open, close };
}
