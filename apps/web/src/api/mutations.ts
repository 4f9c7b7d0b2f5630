import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A change through the API after which every cached query under `queryKey` is asked anew (the
 * screen's table, its pickers, the details of what changed): how the console's simple writes keep
 * what it shows current.
 */
export function useRefreshingMutation<Variables, Answer>(
  queryKey: QueryKey,
  mutationFn: (variables: Variables) => Promise<Answer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
