import type { ScenarioDetail } from '@vrtc/contract';
import type { RowActions } from './content-cells';
import type { Tab } from './content-tabs';
import type { ContentSelection } from './selection';

/** What the content screen hands each tab's panel. */
export interface PanelProps {
  /** The scenario, module and level chosen (the URL's). */
  selection: ContentSelection;
  /** The chosen scenario with everything under it: names the chosen module and level. */
  tree: ScenarioDetail | undefined;
  /** Another scenario, module or level (and tab): the table starts on its first page. */
  choose: (next: ContentSelection, tab?: Tab) => void;
  actions: RowActions;
  /** Opens the dialog that adds an item of the tab's kind. */
  onCreate: () => void;
}
