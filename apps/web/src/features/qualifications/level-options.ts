import type { ScenarioTree } from '@vrtc/contract';
import type { ContentText } from '../../lib/content-text';

export interface LevelGroup {
  group: string;
  items: Array<{ value: string; label: string }>;
}

/**
 * The levels a qualification may require, from the scenarios the organisation may run: grouped by
 * scenario, each "Module — 1. Level" in the console's language. A level chosen earlier that is no
 * longer in the tree (access ended) stays listed under `missingLabel`, so it can be seen and taken
 * away.
 */
export function levelOptions(
  scenarios: readonly ScenarioTree[],
  text: ContentText,
  chosen: readonly string[],
  missingLabel: string,
): LevelGroup[] {
  const known = new Set<string>();
  const groups: LevelGroup[] = scenarios.map((scenario) => ({
    group: text.name(scenario),
    items: scenario.modules.flatMap((module) =>
      module.levels.map((level) => {
        known.add(level.id);
        return {
          value: level.id,
          label: `${text.name(module)} — ${level.level_number}. ${text.name(level)}`,
        };
      }),
    ),
  }));
  const missing = chosen.filter((id) => !known.has(id));
  if (missing.length > 0) {
    groups.push({
      group: missingLabel,
      items: missing.map((id, index) => ({ value: id, label: `${missingLabel} ${index + 1}` })),
    });
  }
  return groups.filter((group) => group.items.length > 0);
}
