import { useEffect } from 'react';
import { ModalsProvider, useModals, type OpenConfirmModal } from '@mantine/modals';

/** Mantine's `openConfirmModal`, as the provider hands it over. */
export type OpenConfirm = (props: OpenConfirmModal) => void;

/** Called with `openConfirmModal` once the provider is mounted, null when it goes. */
export type OnConfirmReady = (open: OpenConfirm | null) => void;

/** Mantine's ModalsProvider, handing its `openConfirmModal` over once it is mounted. */
export function ConfirmModalHost({ onReady }: { onReady: OnConfirmReady }) {
  return (
    <ModalsProvider modalProps={{ centered: true }}>
      <HandOver onReady={onReady} />
    </ModalsProvider>
  );
}

function HandOver({ onReady }: { onReady: OnConfirmReady }) {
  const { openConfirmModal } = useModals();
  useEffect(() => {
    onReady(openConfirmModal);
    return () => onReady(null);
  }, [onReady, openConfirmModal]);
  return null;
}
