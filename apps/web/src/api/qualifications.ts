import type {
  AssignmentBody,
  ComplianceExportQuery,
  ComplianceQuery,
  EvaluationBody,
  QualificationBody,
  QualificationListQuery,
} from '@vrtc/contract';
import { keepPreviousData, useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { api } from './client';
import { routes } from './routes';
import { vrUserKeys } from './vr-users';

/**
 * Qualifications and compliance (issue 37, docs/compliance.md): the organisation's qualifications,
 * their assignments, the compliance view at a moment and its CSV, and on a trainee's record the
 * signed evaluations and revocations. A change asks anew for everything any of them shows.
 */
export const qualificationKeys = {
  all: ['qualifications'] as const,
  list: (query: QualificationListQuery) => ['qualifications', 'list', query] as const,
  compliance: (query: ComplianceQuery) => ['qualifications', 'compliance', query] as const,
};

export function useQualificationList(query: QualificationListQuery) {
  return useQuery({
    queryKey: qualificationKeys.list(query),
    queryFn: ({ signal }) => api.call(routes.listQualifications, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCompliance(query: ComplianceQuery) {
  return useQuery({
    queryKey: qualificationKeys.compliance(query),
    queryFn: ({ signal }) => api.call(routes.listCompliance, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every row under the filters as the server's CSV, headers and statuses in `lang`. */
export async function exportCompliance(query: ComplianceExportQuery) {
  const { blob, filename } = await api.download(routes.exportCompliance, { query });
  return { blob, filename: filename ?? 'compliance.csv' };
}

/**
 * A change to qualifications: afterwards the lists, the compliance view and every trainee's record
 * (which shows statuses and history) are asked for anew.
 */
function useQualificationChange<Variables, Answer>(
  mutationFn: (variables: Variables) => Promise<Answer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: qualificationKeys.all }),
        queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
      ]),
  });
}

export function useSaveQualification() {
  return useQualificationChange(({ id, body }: { id?: string; body: QualificationBody }) =>
    id
      ? api.call(routes.updateQualification, { params: { id }, body })
      : api.call(routes.createQualification, { body }),
  );
}

export function useDeleteQualification() {
  return useQualificationChange((id: string) =>
    api.call(routes.deleteQualification, { params: { id } }),
  );
}

export function useAssignQualification() {
  return useQualificationChange(({ id, body }: { id: string; body: AssignmentBody }) =>
    api.call(routes.assignQualification, { params: { id }, body }),
  );
}

export function useUnassignQualification() {
  return useQualificationChange(({ id, vrUserId }: { id: string; vrUserId: string }) =>
    api.call(routes.unassignQualification, { params: { id, vrUserId } }),
  );
}

export function useSignEvaluation() {
  return useQualificationChange(({ vrUserId, body }: { vrUserId: string; body: EvaluationBody }) =>
    api.call(routes.signEvaluation, { params: { id: vrUserId }, body }),
  );
}

export function useRevokeQualification() {
  return useQualificationChange(
    ({
      vrUserId,
      qualificationId,
      reason,
    }: {
      vrUserId: string;
      qualificationId: string;
      reason: string;
    }) =>
      api.call(routes.revokeQualification, {
        params: { id: vrUserId, qualificationId },
        body: { reason },
      }),
  );
}
