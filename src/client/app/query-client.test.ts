import { MutationObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from './query-client.ts';

afterEach(() => queryClient.clear());

describe('the query client', () => {
  // A form's mutation carries what was typed into it: a server's password, a pasted private
  // key, a new token's answer. Once the form is gone, nothing of it stays in the page's memory.
  it('forgets a mutation, its variables and its answer, once no form observes it', async () => {
    const observer = new MutationObserver(queryClient, {
      mutationFn: (secret: string) => Promise.resolve({ secret }),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await observer.mutate('typed-private-key');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(1);
    unsubscribe();
    await expect.poll(() => queryClient.getMutationCache().getAll()).toEqual([]);
  });
});
