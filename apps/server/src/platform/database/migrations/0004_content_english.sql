-- Content in two languages: the primary (Russian) name and description stay as they are; an
-- optional English one sits beside them (NULL: not given; the console then shows the other).
-- Sessions keep the English names of what they ran too, so history reads in either language.
ALTER TABLE scenarios ADD COLUMN name_en text, ADD COLUMN description_en text;
ALTER TABLE modules ADD COLUMN name_en text, ADD COLUMN description_en text;
ALTER TABLE levels ADD COLUMN name_en text, ADD COLUMN description_en text;
ALTER TABLE level_options ADD COLUMN name_en text, ADD COLUMN description_en text;

ALTER TABLE sessions
  ADD COLUMN scenario_name_en text,
  ADD COLUMN module_name_en text,
  ADD COLUMN level_name_en text;

-- Two levels with one number in a module were accepted; from now on the number is unique. Levels
-- that shared a number keep the first (oldest) one, the others move past the module's highest.
WITH duplicates AS (
  SELECT id, module_id,
    row_number() OVER (PARTITION BY module_id, level_number ORDER BY created_at, id) AS nth
  FROM levels
), renumbered AS (
  SELECT d.id,
    (SELECT max(level_number) FROM levels l WHERE l.module_id = d.module_id)
      + row_number() OVER (PARTITION BY d.module_id ORDER BY d.id) AS level_number
  FROM duplicates d WHERE d.nth > 1
)
UPDATE levels SET level_number = renumbered.level_number
FROM renumbered WHERE levels.id = renumbered.id;
ALTER TABLE levels ADD CONSTRAINT levels_module_number_key UNIQUE (module_id, level_number);
-- The constraint's index serves what this one did.
DROP INDEX levels_module_idx;
