import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A value built from translated words (a table's columns, the dialogs' labels), built again when
 * the language, the screen's `t` or one of `keys` changes, not on every render. The callbacks it
 * holds (delete this row, open that dialog) read the screen's state when they are called, so they
 * need not be keys.
 */
export function useLanguageMemo<T>(
  t: TFunction<never, never>,
  build: () => T,
  keys: readonly unknown[] = [],
): T {
  const { i18n } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `build` is a new closure on every render; what it reads that changes its words is `t`, the language and `keys` (see above)
  return useMemo(build, [t, i18n.language, ...keys]);
}
