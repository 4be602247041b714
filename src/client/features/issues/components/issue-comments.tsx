import { useId, useState } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { issueCommentCreateSchema } from '#shared/issues.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { useAddComment } from '../api/issue-mutations.ts';
import { issueCommentsQuery } from '../api/issue-queries.ts';
import { PersonName } from './person-name.tsx';
import { BareList } from '#client/components/bare-list.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

/** An issue's comments, oldest first, and (for those who may write) a form to add one. */
export function IssueComments({ issueId, mayWrite }: { issueId: string; mayWrite: boolean }) {
  const comments = useQuery(issueCommentsQuery(issueId));

  let body;
  if (comments.isPending) {
    body = <Skeleton height={48} role="status" aria-label="Loading comments" />;
  } else if (comments.isError) {
    body = (
      <ErrorAlert
        title="Could not load the comments"
        error={comments.error}
        onRetry={() => void comments.refetch()}
      />
    );
  } else if (comments.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        No comments yet.
      </Text>
    );
  } else {
    body = (
      <BareList gap="sm" label="Comments" ordered>
        {comments.data.map((comment) => (
          <Paper key={comment.id} component="li" withBorder radius="md" p="sm">
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                <Text span inherit fw={600} c="var(--mantine-color-text)">
                  <PersonName person={comment.author} />
                </Text>
                {' · '}
                <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt)}</time>
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {comment.text}
              </Text>
            </Stack>
          </Paper>
        ))}
      </BareList>
    );
  }

  return (
    <Stack gap="sm">
      {body}
      {mayWrite && <AddCommentForm issueId={issueId} />}
    </Stack>
  );
}

function AddCommentForm({ issueId }: { issueId: string }) {
  const add = useAddComment();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { text: '' },
    validate: (values) => {
      const result = issueCommentCreateSchema.safeParse(values);
      return result.success ? {} : { text: result.error.issues[0]?.message ?? 'Write a comment' };
    },
  });

  const submit = form.onSubmit(
    async (values) => {
      setProblem(null);
      try {
        await add.mutateAsync({ id: issueId, text: values.text });
        form.reset();
      } catch (error) {
        if (isApiError(error, 400) && error.fields.text) {
          showFieldRefusal(form, formId, 'text', error.fields.text);
          return;
        }
        setProblem(errorMessage(error));
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate aria-label="Add a comment">
      <Stack gap="xs">
        <FormErrorAlert title="The comment was not added" message={problem} />
        <Textarea
          label="Comment"
          autosize
          minRows={3}
          maxRows={12}
          {...form.getInputProps('text')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.submitting}>
            Add comment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
