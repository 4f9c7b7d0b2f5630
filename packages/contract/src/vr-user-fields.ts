/**
 * The VR users list's sort fields, in a module of their own without schemas: the console imports
 * them at run time, and a module with schemas would bring every schema it builds (the training
 * record's qualifications among them) into the first signed-in page.
 */
export const VR_USER_SORT_FIELDS = [
  'name',
  'session_count',
  'completed_count',
  'last_session_at',
  'created_at',
] as const;
