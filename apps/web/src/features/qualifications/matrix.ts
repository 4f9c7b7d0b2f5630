import type { ComplianceRow } from '@vrtc/contract';

/** A trainee's line of the matrix: their standing in each qualification they are assigned. */
export interface MatrixLine {
  vrUserId: string;
  vrUserName: string;
  /** By qualification id; a qualification not assigned to the trainee has no cell. */
  cells: Record<string, ComplianceRow>;
}

export interface Matrix {
  /** The columns: every qualification on the page, by name. */
  qualifications: Array<{ id: string; name: string }>;
  /** The lines, in the order the server sent the rows (by trainee). */
  lines: MatrixLine[];
}

/**
 * Folds a page of the compliance view (one row per trainee and qualification, by trainee) into the
 * trainees × qualifications matrix a manager reads at a glance.
 */
export function foldMatrix(rows: readonly ComplianceRow[]): Matrix {
  const columns = new Map<string, string>();
  const lines = new Map<string, MatrixLine>();
  for (const row of rows) {
    columns.set(row.qualification_id, row.qualification_name);
    let line = lines.get(row.vr_user_id);
    if (!line) {
      line = { vrUserId: row.vr_user_id, vrUserName: row.vr_user_name, cells: {} };
      lines.set(row.vr_user_id, line);
    }
    line.cells[row.qualification_id] = row;
  }
  const qualifications = [...columns]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { qualifications, lines: [...lines.values()] };
}
