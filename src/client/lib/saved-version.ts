import { useState } from 'react';
import { useQueryClient, type FetchQueryOptions, type QueryKey } from '@tanstack/react-query';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';
import { errorMessage, isApiError } from './api-client.ts';

/** Whether a save was refused because someone else saved a newer version first. */
function isStaleVersion(error: unknown): boolean {
  return isApiError(error, 409) && error.code === STALE_VERSION_CODE;
}

/**
 * The version an edit form saves over. It is the one the form was opened at, not the one a live
 * update brings in meanwhile: saving over that would overwrite a colleague's change unseen. When
 * a save is refused because someone saved first, `stale` is set, and `load` reads the record as
 * stored now and saves go over that version: with `toValues`, its values replace what was
 * typed; without (a secret that is never shown), what was typed stays.
 */
export function useSavedVersion<T extends { id: string; version: number }, V, K extends QueryKey>(
  opened: T | undefined,
  /** The form's `useForm`. */
  form: { setValues(values: V): void; resetDirty(values: V): void; clearErrors(): void },
  options: {
    toValues?: (record: T) => V;
    /** The record's query (read past its cache when loading). */
    query: (id: string) => FetchQueryOptions<T, Error, T, K>;
    /** The form's alert: cleared once loaded, or why it could not be. */
    setProblem: (problem: string | null) => void;
    /** Where typing goes on once loaded: the form's first field. */
    focus: () => void;
  },
) {
  const queryClient = useQueryClient();
  const [base, setBase] = useState(opened);
  const [stale, setStale] = useState(false);
  return {
    /** The record as the form's saves go over it; undefined for a new one. */
    base,
    stale,
    /** Runs one save over `base` (create when undefined); its failure is the caller's to show. */
    async save<R>(write: (base: T | undefined) => Promise<R>): Promise<R> {
      setStale(false);
      try {
        return await write(base);
      } catch (error) {
        setStale(isStaleVersion(error));
        throw error;
      }
    },
    /** Fills the form with the record as stored now. */
    async load(): Promise<void> {
      if (!base) return;
      try {
        const latest = await queryClient.fetchQuery({ ...options.query(base.id), staleTime: 0 });
        setBase(latest);
        setStale(false);
        if (options.toValues) {
          const values = options.toValues(latest);
          form.setValues(values);
          form.resetDirty(values);
        }
        form.clearErrors();
        options.setProblem(null);
        options.focus();
      } catch (error) {
        options.setProblem(errorMessage(error));
      }
    },
  };
}
