import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { OpenConfirmModal } from '@mantine/modals';
import type { OnConfirmReady, OpenConfirm } from './confirm-modal-host.tsx';

/*
 * Confirmation dialogs ("Delete client?"). Mantine's ModalsProvider draws them, and with it come
 * Modal, its scroll lock and focus trap: no page needs those to be drawn, so they load with the
 * first confirmation asked for. Mantine's own `modals.openConfirmModal` would be lost while
 * the provider is not there; this one waits for it.
 */

const ConfirmModalHost = lazy(async () => ({
  default: (await import('./confirm-modal-host.tsx')).ConfirmModalHost,
}));

let open: OpenConfirm | null = null;
const waiting: OpenConfirmModal[] = [];
/** Whether a confirmation has been asked for: the host is drawn from then on. */
let asked = false;
const askedListeners = new Set<() => void>();

/** Opens a confirmation dialog: Mantine's `openConfirmModal` options. */
export function openConfirmModal(props: OpenConfirmModal): void {
  if (open) {
    open(props);
    return;
  }
  waiting.push(props);
  if (!asked) {
    asked = true;
    for (const listener of askedListeners) listener();
  }
}

const ready: OnConfirmReady = (next) => {
  open = next;
  if (next) for (const props of waiting.splice(0)) next(props);
};

function subscribe(listener: () => void) {
  askedListeners.add(listener);
  return () => {
    askedListeners.delete(listener);
  };
}

/** Where the confirmations are drawn, once there has been one: among the app's providers. */
export function ConfirmModals() {
  const wanted = useSyncExternalStore(subscribe, () => asked);
  return (
    wanted && (
      <Suspense fallback={null}>
        <ConfirmModalHost onReady={ready} />
      </Suspense>
    )
  );
}
