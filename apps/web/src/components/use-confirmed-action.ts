import { useCallback, useRef } from 'react';
import { errorText } from '../lib/error-text';
import { notifyError, notifySuccess } from '../lib/notify';
import { confirmAction, type ConfirmOptions } from './confirm';

/** What a confirmed action tells when it has run: a success, or a failure of some of its work. */
export type ActionOutcome = string | { error: string };

export interface ConfirmedActionOptions<TData, TVariables> {
  /** The success toast, or `{ error }` when the answer says part of the work failed. */
  success: ActionOutcome | ((data: TData, variables: TVariables) => ActionOutcome);
  /** The failure toast when the error has no code the console words (lib/error-text.ts). */
  error: string;
  /** Anything else to do after a success (clear a selection, show a new state). */
  onSuccess?: (data: TData, variables: TVariables) => void;
  /** Anything else to do after a failure (e.g. refresh what the refusal says has changed). */
  onError?: (error: unknown, variables: TVariables) => void;
}

/**
 * The console's one way of doing something that needs a yes: ask (a confirmation dialog), run the
 * mutation, then say how it went in a toast, in the console's language (the caller's texts, and
 * the server's error code worded by errorText). Returns the function that starts it, given the
 * mutation's variables and the question to ask about them.
 */
export function useConfirmedAction<TData, TVariables>(
  mutation: { mutateAsync: (variables: TVariables) => Promise<TData> },
  options: ConfirmedActionOptions<TData, TVariables>,
): (variables: TVariables, question: ConfirmOptions) => Promise<void> {
  const { mutateAsync } = mutation;
  // The texts of the render the action finishes in (the language may change while it runs); the
  // function returned stays the same from render to render.
  const latest = useRef(options);
  latest.current = options;
  return useCallback(
    async (variables, question) => {
      if (!(await confirmAction(question))) return;
      let data: TData;
      try {
        data = await mutateAsync(variables);
      } catch (error) {
        notifyError(errorText(error, latest.current.error));
        latest.current.onError?.(error, variables);
        return;
      }
      const { success, onSuccess } = latest.current;
      onSuccess?.(data, variables);
      const outcome = typeof success === 'function' ? success(data, variables) : success;
      if (typeof outcome === 'string') notifySuccess(outcome);
      else notifyError(outcome.error);
    },
    [mutateAsync],
  );
}
