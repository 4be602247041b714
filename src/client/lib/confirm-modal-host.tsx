import { useEffect } from 'react';
import { ModalsProvider, useModals, type OpenConfirmModal } from '@mantine/modals';

/** Mantine's ModalsProvider, handing its `openConfirmModal` over once it is mounted. */
export function ConfirmModalHost({
  onReady,
}: {
  onReady: (open: ((props: OpenConfirmModal) => void) | null) => void;
}) {
  return (
    <ModalsProvider modalProps={{ centered: true }}>
      <HandOver onReady={onReady} />
    </ModalsProvider>
  );
}

function HandOver({
  onReady,
}: {
  onReady: (open: ((props: OpenConfirmModal) => void) | null) => void;
}) {
  const { openConfirmModal } = useModals();
  useEffect(() => {
    onReady(openConfirmModal);
    return () => onReady(null);
  }, [onReady, openConfirmModal]);
  return null;
}
