import { Toaster as ChakraToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { useRef, useState, type PointerEvent } from 'react';
import { TOAST_SWIPE_THRESHOLD_PX, toaster } from '../lib/toast';

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} maxWidth="420px">
        {(toast) => (
          <SwipeToDismiss id={toast.id!} urgent={toast.type === 'error'}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {/* A description of several lines (a bulk action's errors, one a line) keeps its breaks. */}
              {toast.description && <Toast.Description whiteSpace="pre-line">{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger />}
          </SwipeToDismiss>
        )}
      </ChakraToaster>
    </Portal>
  );
}

/** Document 1, section 9: a toast follows the pointer to the right and is dismissed past 50 px; less springs back. */
function SwipeToDismiss({ id, urgent, children }: { id: string; urgent: boolean; children: React.ReactNode }) {
  const start = useRef<{ x: number; pointer: number } | null>(null);
  const [offset, setOffset] = useState(0);

  const down = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('button')) return; // the close button keeps its click
    start.current = { x: event.clientX, pointer: event.pointerId };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current?.pointer === event.pointerId) setOffset(Math.max(0, event.clientX - start.current.x));
  };
  const up = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current?.pointer !== event.pointerId) return;
    const distance = event.clientX - start.current.x;
    start.current = null;
    setOffset(0);
    if (distance > TOAST_SWIPE_THRESHOLD_PX) toaster.dismiss(id);
  };

  return (
    <Toast.Root
      // An error is announced at once (role="alert"); other toasts wait their turn in the polite region.
      role={urgent ? 'alert' : undefined}
      width={{ md: 'sm' }}
      data-swipe-offset={offset}
      style={offset ? { translate: `${offset}px 0`, transition: 'none' } : undefined}
      touchAction="pan-y"
      // A closed toast stays in the page until it is removed (TOAST_REMOVE_DELAY_MS); the hover area
      // Zag keeps around it while it leaves would meanwhile take the clicks meant for what is under it.
      css={{ '&[data-state=closed] [data-ghost]': { pointerEvents: 'none !important' } }}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
    >
      {children}
    </Toast.Root>
  );
}
